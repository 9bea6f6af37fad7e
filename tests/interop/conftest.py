"""Fitted models and the read-back helpers of the export tests.

Each (learner, data set) pair is fitted once per session; the tests check
that another library reading the exported file computes the same class
posteriors as ``predict_proba`` on the first rows.
"""

from __future__ import annotations

import numpy as np
import pyagrum as gum
import pytest

from augnb import AODE, BSEJ, KDB, TAN, NaiveBayes
from augnb.datasets import load

#: Three bundled data sets: all discrete (car, where BSEJ joins features),
#: discrete and continuous with missing values (hepatitis), all continuous
#: (iris).
DATASETS = ("car", "hepatitis", "iris")
#: Rows scored per model (pyAgrum's inference is per row).
N_ROWS = 50

LEARNERS = {
    "NaiveBayes": NaiveBayes,
    "TAN": TAN,
    "KDB2": lambda: KDB(k=2),
    "BSEJ": BSEJ,
    "AODE": AODE,
}

_FITTED: dict = {}


@pytest.fixture
def fitted():
    """``fitted(learner, dataset) -> (estimator, X, rows)``, fitted once."""

    def get(learner, dataset):
        key = (learner, dataset)
        if key not in _FITTED:
            X, y = load(dataset)
            estimator = LEARNERS[learner]().fit(X, y)
            _FITTED[key] = (estimator, X, X.iloc[:N_ROWS])
        return _FITTED[key]

    return get


@pytest.fixture
def evidence():
    """``evidence(network, codes_row) -> dict`` for pyAgrum's ``setEvidence``.

    A node whose members are all observed gets its state's index; a compound
    node with some members missing gets the 0/1 vector of the states
    consistent with the observed ones; a node with every member missing gets
    no evidence (it is summed out, as augnb does).
    """

    def make(network, row):
        out = {}
        for node in network.nodes:
            cards = [network.columns[m].card for m in node.members]
            values = [int(row[m]) for m in node.members]
            if all(v >= 0 for v in values):
                out[node.name] = int(np.ravel_multi_index(values, cards))
            elif any(v >= 0 for v in values):
                grid = np.indices(cards).reshape(len(cards), -1)
                ok = np.ones(grid.shape[1], dtype=bool)
                for axis, v in enumerate(values):
                    if v >= 0:
                        ok &= grid[axis] == v
                out[node.name] = ok.astype(float).tolist()
        return out

    return make


@pytest.fixture
def agrum_posteriors(evidence):
    """``agrum_posteriors(path, network, codes) -> (n_rows, n_classes)``.

    pyAgrum reads the file and computes the exact posterior of the class
    node (LazyPropagation) given each row's evidence.
    """

    def run(path, network, codes):
        bn = gum.loadBN(str(path))
        engine = gum.LazyPropagation(bn)
        out = []
        for row in codes:
            engine.setEvidence(evidence(network, row))
            engine.makeInference()
            out.append(engine.posterior(network.class_name).toarray())
            engine.eraseAllEvidence()
        return np.array(out)

    return run


@pytest.fixture
def pgmpy_posteriors():
    """``pgmpy_posteriors(model, network, rows, estimator) -> (posteriors, scored)``.

    pgmpy's exact posterior (variable elimination) of the class given each
    row's observed nodes, states named by their identifiers (BIF, NET).
    Rows with a compound node partly missing are left out (``scored`` is
    False there; pyAgrum's tests take them, as soft evidence).
    """

    def run(model, network, rows, estimator):
        from pgmpy.inference import VariableElimination

        engine = VariableElimination(model)
        out, scored = [], []
        for row in estimator.encode(rows).codes:
            found = {}
            partly = False
            for node in network.nodes:
                values = [int(row[m]) for m in node.members]
                partly |= any(v < 0 for v in values) and any(v >= 0 for v in values)
                if all(v >= 0 for v in values):
                    cards = [network.columns[m].card for m in node.members]
                    found[node.name] = node.tokens[np.ravel_multi_index(values, cards)]
            scored.append(not partly)
            if partly:
                continue
            q = engine.query([network.class_name], evidence=found, show_progress=False)
            states = q.state_names[network.class_name]
            out.append([q.values[states.index(c)] for c in network.class_tokens])
        return np.array(out), np.array(scored)

    return run
