"""The package version, at the bottom of the layers (theory writers print it)."""

__all__ = ["__version__"]

__version__ = "0.1.0"
