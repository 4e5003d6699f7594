"""Foundation package: settings, store, routing engine, metrics, logging."""
