print("unctl")
