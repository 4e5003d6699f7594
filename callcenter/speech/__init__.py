"""Speech for the line: local STT/TTS plugins (models shipped in registry packages, no network),
the spoken-form wrapper every STT gets, and the factory that picks providers from settings.

The engines (faster-whisper, hibari) are the optional `voice` extra; importing this package
does not import them.
"""
