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
from augnb.interop.network import describe

#: Three bundled data sets: all discrete (car, where BSEJ joins features),
#: discrete and continuous with missing values (hepatitis), all continuous
#: (iris).
DATASETS = ("car", "hepatitis", "iris")
#: Rows scored per model (pyAgrum's inference is per row).
N_ROWS = 50

#: Unit roundoff of single precision. pyAgrum's BIF, NET, DSL and UAI readers
#: keep each probability as a C++ ``float`` whatever its spelling: their
#: Coco/R grammars (aGrUM ``src/agrum/BN/io/BIF/cocoR/SyntaxBIF.atg``, the
#: ``FLOAT<float& val>`` production, and ``io/net/cocoR/SyntaxNet.atg``)
#: convert a number token with ``coco_atof`` (``src/agrum/base/core/cocoR/
#: common.h``: ``float res; istr >> res;``) into a ``std::vector<float>``.
#: Its XMLBIF reader (``io/BIFXML/BIFXMLBNReader_tpl.h``) reads doubles.
FLOAT32_ROUNDOFF = 2.0**-24

LEARNERS = {
    "NaiveBayes": NaiveBayes,
    "TAN": TAN,
    "KDB2": lambda: KDB(k=2),
    # A fixed seed: the search's folds, and so its joins, are drawn at random;
    # with this one BSEJ joins features on car and on hepatitis (one with a
    # member often missing, the soft-evidence case).
    "BSEJ": lambda: BSEJ(random_state=1),
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


def single_precision_atol(network):
    """The largest posterior error that single-precision CPTs can cause.

    Each of the ``m`` factors of ``P(c, x)`` (the prior and one CPT entry a
    node; a sum of such products when nodes are summed out) is off by a
    relative ``u = 2**-24`` at most, so ``P(c, x)`` is off by ``a_c``,
    ``|a_c| <= m u`` (first order), and the posterior by
    ``p_c sum_k p_k (a_c - a_k) / (1 + ...)``, at most
    ``p_c (1 - p_c) 2 m u / (1 - m u) <= m u / (2 (1 - m u))``. Double
    rounding of the inference itself is far below (1e-12 allowed for it).
    """
    mu = (len(network.nodes) + 1) * FLOAT32_ROUNDOFF
    return mu / (2 * (1 - mu)) + 1e-12


@pytest.fixture
def agrum_tables():
    """``agrum_tables(path, network) -> [(read, written), ...]``, each CPT.

    pyAgrum reads the file; each of its tables (the class prior, then each
    node's) is laid out as ``network``'s (class, parents, node) and returned
    beside the probabilities augnb wrote.
    """

    def run(path, network):
        bn = gum.loadBN(str(path))
        names = [network.class_name]
        written = [network.prior]
        order = [[network.class_name]]
        for node in network.nodes:
            names.append(node.name)
            written.append(node.cpt)
            order.append(
                [network.class_name]
                + [network.nodes[p].name for p in node.parents]
                + [node.name]
            )
        out = []
        for name, table, axes in zip(names, written, order):
            tensor = bn.cpt(name)
            # toarray() puts the tensor's variables in reverse order.
            held = list(reversed(tensor.names))
            read = np.array(tensor.toarray()).transpose([held.index(a) for a in axes])
            out.append((read, table))
        return out

    return run


@pytest.fixture(
    params=[
        (learner, dataset)
        for learner in ("NaiveBayes", "TAN", "KDB2", "BSEJ")
        for dataset in DATASETS
    ],
    ids="-".join,
)
def readback_case(request):
    """``(learner, dataset)``: four learners (BSEJ joins columns) on three data sets."""
    return request.param


@pytest.fixture
def agrum_float_readback(fitted, agrum_tables, agrum_posteriors, tmp_path):
    """``check(writer, suffix, learner, dataset)``: pyAgrum reads a BIF or NET export.

    Its parser keeps each number as a C++ float (see ``FLOAT32_ROUNDOFF``):
    every CPT entry it holds must be the written double rounded to single
    precision, nothing else lost, and its posteriors on the first rows
    (missing values summed out, as augnb does) must lie within
    :func:`single_precision_atol` of ``predict_proba`` (0.9e-7 to 5.1e-7 on
    the bundled data sets; about 7e-8 is seen).
    """

    def check(writer, suffix, learner, dataset):
        estimator, _, rows = fitted(learner, dataset)
        network = describe(estimator)
        path = tmp_path / f"model{suffix}"
        path.write_text(writer(network))
        for read, written in agrum_tables(path, network):
            assert read.shape == written.shape
            np.testing.assert_array_equal(read, written.astype(np.float32))
        got = agrum_posteriors(path, network, estimator.encode(rows).codes)
        np.testing.assert_allclose(
            got,
            estimator.predict_proba(rows),
            rtol=0,
            atol=single_precision_atol(network),
        )

    return check


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
