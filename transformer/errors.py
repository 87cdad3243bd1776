"""The project's exception types: messages are sentences a user can act on."""


class TransformerError(Exception):
    """Base class for every error this package raises on purpose."""


class ConfigError(TransformerError, ValueError):
    """A hyperparameter is out of range; the message names the field."""


class DataError(TransformerError, ValueError):
    """Sentence pairs or a pairs file cannot be used as they are."""


class CheckpointError(TransformerError, ValueError):
    """A file is not a valid checkpoint of this project."""
