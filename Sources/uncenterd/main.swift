print("uncenterd")
