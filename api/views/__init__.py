"""Thin DRF views: parse and authorize, call a service or selector, answer. One class per
operation, with nested input/output serializers (HackSoft style)."""
