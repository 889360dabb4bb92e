print("polish chat example")
