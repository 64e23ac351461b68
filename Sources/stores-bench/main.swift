print("stores-bench")
