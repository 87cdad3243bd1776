"""The project's exception types: messages are sentences a user can act on."""


class TransformerError(Exception):
    """Base class for every error this package raises on purpose."""


class ConfigError(TransformerError, ValueError):
    """A hyperparameter is out of range; the message names the field."""


class DataError(TransformerError, ValueError):
    """Sentence pairs, a pairs file or a typed sentence cannot be used as they are.

    code and values (optional) let a UI show the message in its own language.
    """

    def __init__(self, message: str, code: str | None = None, **values):
        super().__init__(message)
        self.code, self.values = code, values


class CheckpointError(TransformerError, ValueError):
    """A file is not a valid checkpoint of this project."""


class StoreError(TransformerError):
    """The model store refuses a request (a bad hash, a damaged file, a full store); the message says what to do.

    code and values let a UI show the message in its own language, as for DataError.
    """

    def __init__(self, message: str, code: str | None = None, **values):
        super().__init__(message)
        self.code, self.values = code, values
