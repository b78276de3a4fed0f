"""The match host: one match's life, its clocks, its persistence, replay and the local console.

The host speaks to the outside world only through :class:`geniusbot.host.transport.Transport`,
so the same host runs behind Discord, the console and the tests.
"""
