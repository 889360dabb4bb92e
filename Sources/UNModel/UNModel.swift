// The UNModel module.
