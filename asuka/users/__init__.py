"""User backends: they turn executed failures into natural-language feedback."""

from asuka.registry import Registry
from asuka.users.base import User, failures_for_feedback

registry: Registry[User] = Registry(
    "user", lazy={"template": "asuka.users.template", "llm": "asuka.users.llm",
                  "human": "asuka.users.human"}
)
get = registry.get

__all__ = ["User", "failures_for_feedback", "get", "registry"]
