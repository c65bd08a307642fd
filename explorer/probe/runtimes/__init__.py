"""Probe adapters, one file per runtime (see explorer.probe)."""
