// The UVLoop module.
