"""Reading the operations endpoint over HTTP, as Prometheus and an orchestrator do."""

from __future__ import annotations

from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        return answer.status, await answer.text()


async def scrape(base: str) -> Samples:
    """Every sample of /metrics: (name, labels) -> value."""
    status, text = await get(f"{base}/metrics")
    assert status == 200, text
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: Samples, name: str, **labels: Any) -> float:
    return samples.get((name, frozenset((k, str(v)) for k, v in labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: Any) -> float:
    """How much a counter (or a histogram's _count, _sum) grew between two scrapes."""
    return value(after, name, **labels) - value(before, name, **labels)
