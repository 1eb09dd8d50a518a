"""Integrations with agent frameworks, each an optional extra that imports its framework
only when used: ``graphmem.integrations.langchain`` (``pip install 'graphmem[langchain]'``)."""
