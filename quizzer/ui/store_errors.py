"""A store that refuses a write ends the app cleanly: :func:`stops_on_store_error`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from rich.text import Text
from textual.dom import DOMNode

from quizzer.errors import StoreError

F = TypeVar("F", bound=Callable[..., Any])


def store_failed(node: DOMNode, exc: StoreError) -> None:
    """The store refused a write (disk full, removed, ...): stop cleanly with its message.

    Whatever was acknowledged before is on disk; the answer that failed was not
    recorded. The app exits with code 3.
    """
    node.app.exit(return_code=3, message=Text(f"quizzer: error: {exc}"))


def stops_on_store_error(method: F) -> F:
    """Run a handler; if the store refuses a write, end the app with its message (exit 3)."""
    if inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        async def guarded_async(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
            try:
                return await method(self, *args, **kwargs)
            except StoreError as exc:
                store_failed(self, exc)
                return None

        return guarded_async  # type: ignore[return-value]

    @functools.wraps(method)
    def guarded(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except StoreError as exc:
            store_failed(self, exc)
            return None

    return guarded  # type: ignore[return-value]
