"""Code Agent backends: they turn a query (or PRD) plus feedback into a workspace."""

from asuka.codeagents.base import AgentRoundResult, CodeAgent, RoundContext
from asuka.registry import Registry

registry: Registry[CodeAgent] = Registry(
    "code agent",
    lazy={
        "sim": "asuka.codeagents.sim",
        "llm": "asuka.codeagents.llm",
        "cli": "asuka.codeagents.agent_cli",
        "replay": "asuka.codeagents.replay",
        "dir": "asuka.codeagents.directory",
    },
)
get = registry.get

__all__ = ["AgentRoundResult", "CodeAgent", "RoundContext", "get", "registry"]
