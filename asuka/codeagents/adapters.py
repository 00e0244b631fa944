"""The CLI agents' adapters: ``cli_agents.yaml`` as data (how each tool's command line is built,
which variables it needs, the release it was written against). Read by the "cli" code agent,
by the installer of the pinned releases and by the image builder."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

ADAPTERS_FILE = Path(__file__).with_name("cli_agents.yaml")


class HomeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: str              # relative to the agent's private HOME
    when: str | None = None  # the variable whose presence asks for the file; None: always
    text: str


class CLIAdapter(BaseModel):
    """One entry of cli_agents.yaml (see the comments there)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    binary: str | list[str]
    prompt_via: Literal["arg", "stdin", "file"] = "arg"
    first: list[str]
    continue_: list[str] | None = Field(default=None, alias="continue")
    model_args: list[str] = Field(default_factory=list)
    transcript: str | dict[str, str] = "stdout"
    usage: str | None = None
    env: list[str] = Field(default_factory=list)
    env_set: dict[str, str] = Field(default_factory=dict)
    model_env: str | None = None
    # at least one of these must be set (the provider key), else the cell fails at preflight;
    # empty: the tool needs none (it may be configured by its config files)
    requires_env: list[str] = Field(default_factory=list)
    # files or folders under the user's HOME the tool may see: copied into its private HOME
    config: list[str] = Field(default_factory=list)
    # set only when the tool runs sealed (e.g. Claude Code's root guard wants to be told)
    sandboxed_env: dict[str, str] = Field(default_factory=dict)
    network: bool = True  # agents call their model; nothing else of the host is reachable
    # the container image with the tool installed, for the docker agent sandbox
    image: str | None = None
    # argv tokens replaced when the tool runs sealed: its own sandbox (nested bubblewrap cannot
    # start inside ours) gives way to the one Asuka puts around it
    sandboxed_args: dict[str, str] = Field(default_factory=dict)
    # files written into the private HOME before each round when a variable is set (Codex's
    # provider for OPENAI_BASE_URL); {env:NAME} and {model} are substituted in the text
    home_config: list[HomeConfig] = Field(default_factory=list)
    # variables set from another when unset: OPENAI_API_BASE from OPENAI_BASE_URL, so either
    # name of the OpenAI-compatible endpoint reaches the tool
    env_alias: dict[str, str] = Field(default_factory=dict)
    # the release this adapter was written against, npm:NAME@VERSION or pypi:NAME==VERSION:
    # what `python -m asuka.codeagents.install` installs (asuka.codeagents.install)
    package: str | None = None


def load_adapters(path: Path | None = None) -> dict[str, CLIAdapter]:
    data = yaml.safe_load((path or ADAPTERS_FILE).read_text()) or {}
    return {name: CLIAdapter.model_validate(entry) for name, entry in data.items()}
