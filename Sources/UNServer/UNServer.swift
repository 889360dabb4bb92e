// The UNServer module.
