"""The SDK's version (the package's, read by pyproject.toml; sent in User-Agent)."""
__version__ = "0.1.0"
