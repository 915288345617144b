"""Helpers the tests share: hosts, processes, databases, stand-in games and hostile text."""
