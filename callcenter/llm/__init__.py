"""Language models: the embedded offline router LLM and the factory that picks one from settings."""
