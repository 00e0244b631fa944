"""UI Agent backends: they execute evaluation tasks on a served app and return verdicts."""

from asuka.registry import Registry
from asuka.uiagents.base import UIAgent, UISession

registry: Registry[UIAgent] = Registry(
    "UI agent",
    lazy={
        "scripted": "asuka.uiagents.scripted.agent",
        "browser-use": "asuka.uiagents.browser_use.agent",
        "hybrid": "asuka.uiagents.hybrid",
    },
)
get = registry.get

__all__ = ["UIAgent", "UISession", "get", "registry"]
