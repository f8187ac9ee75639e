"""The sentences the table tools write about a file they did not load and a query they
stopped or cut, in English and French (English when a language has none)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "too_wide": "{name} has {columns:,} columns, over the limit of {limit:,} for a table; it was not loaded.",
        "load_memory": "{name} needs more than {memory_mb} MB of memory to be read as a table; it was not loaded.",
        "unreadable": "{name} could not be read as a table; it was not loaded.",
        "timeout": "The query ran longer than {seconds:g} s and was stopped; filter or aggregate more, or add a LIMIT.",
        "memory": "The query needed more than {memory_mb} MB of memory; aggregate more or select fewer rows.",
        "hidden": "The database's settings, files and variables are not available here ({names}); "
        "query the tables instead.",
        "cut_bytes": "only the first {kept:,} rows are kept, the {budget} MB limit of a result",
        "cut_cells": "text longer than {chars:,} characters was cut (…)",
        "count_stopped": "there are more rows than these; counting them all ran past {seconds:g} s",
    },
    "fr": {
        "too_wide": "{name} a {columns} colonnes, au-delà de la limite de {limit} par table ; il n'a pas été chargé.",
        "load_memory": "{name} demande plus de {memory_mb} Mo de mémoire pour être lu comme une table ; "
        "il n'a pas été chargé.",
        "unreadable": "{name} n'a pas pu être lu comme une table ; il n'a pas été chargé.",
        "timeout": "La requête a duré plus de {seconds:g} s et a été arrêtée ; filtrez ou agrégez davantage, "
        "ou ajoutez un LIMIT.",
        "memory": "La requête demandait plus de {memory_mb} Mo de mémoire ; agrégez davantage ou sélectionnez "
        "moins de lignes.",
        "hidden": "Les réglages, fichiers et variables de la base ne sont pas accessibles ici ({names}) ; "
        "interrogez plutôt les tables.",
        "cut_bytes": "seules les {kept} premières lignes sont gardées, la limite de {budget} Mo d'un résultat",
        "cut_cells": "les textes de plus de {chars} caractères ont été coupés (…)",
        "count_stopped": "il y a plus de lignes que celles-ci ; les compter toutes a dépassé {seconds:g} s",
    },
}


def say(key: str, language: str = "en", **values: object) -> str:
    """The sentence ``key`` in ``language`` with its values filled in."""
    text = MESSAGES.get(language, {}).get(key) or MESSAGES["en"][key]
    return text.format(**values)
