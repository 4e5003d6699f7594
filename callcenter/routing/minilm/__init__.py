"""Data: the word-piece vocabulary and input embedding table of all-MiniLM-L6-v2."""
