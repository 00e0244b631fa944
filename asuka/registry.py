"""Backends by name: ``codeagents.get("sim", **options)``.

Each role package owns one Registry; a backend registers its factory with a decorator, and
nothing outside the package imports a concrete backend."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class UnknownBackend(KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; we want it plain
        return str(self.args[0])


class Registry(Generic[T]):
    def __init__(self, role: str, lazy: dict[str, str] | None = None) -> None:
        self.role = role
        self._factories: dict[str, Callable[..., T]] = {}
        # name -> module that registers it on import (keeps heavy imports lazy)
        self._lazy = dict(lazy or {})

    def register(self, name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
        def deco(factory: Callable[..., T]) -> Callable[..., T]:
            self._factories[name] = factory
            return factory

        return deco

    def names(self) -> list[str]:
        return sorted(set(self._factories) | set(self._lazy))

    def get(self, name: str, **options: Any) -> T:
        if name not in self._factories and name in self._lazy:
            importlib.import_module(self._lazy[name])
        try:
            factory = self._factories[name]
        except KeyError:
            raise UnknownBackend(
                f"unknown {self.role} backend {name!r}; known: {', '.join(self.names())}"
            ) from None
        return factory(**options)
