"""Records what BFCL's own Python classes answer to the multi-turn ground truth (python-results.json).

Run once by hand, not by the tests (they only read the file):

    python3 record-python-results.py <gorilla>/berkeley-function-call-leaderboard ../../../../shared/corpus/bfcl/

with a gorilla checkout at commit 6ea57973 (the corpus's) and mpmath installed. For every task whose
classes the replay implements, it loads each class from `initial_config` as BFCL's executor does and
evaluates the ground-truth calls in order; a result is its JSON value, `{"__repr__": str(value)}` when it
has none (an mpmath number), `{"__exception__": str(error)}` when the call raised.
"""

import copy
import json
import sys

sys.path.insert(0, sys.argv[1])

from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.gorilla_file_system import (  # noqa: E402
    GorillaFileSystem,
)
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.math_api import MathAPI  # noqa: E402
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.message_api import MessageAPI  # noqa: E402
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.posting_api import TwitterAPI  # noqa: E402
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.ticket_api import TicketAPI  # noqa: E402

CLASSES = {
    "GorillaFileSystem": GorillaFileSystem,
    "TwitterAPI": TwitterAPI,
    "MathAPI": MathAPI,
    "MessageAPI": MessageAPI,
    "TicketAPI": TicketAPI,
}
STATELESS = {"MathAPI"}

corpus = sys.argv[2]


def json_lines(path):
    with open(path) as file:
        return [json.loads(line) for line in file if line.strip()]


answers = {row["id"]: row["ground_truth"] for row in json_lines(corpus + "possible_answer/BFCL_v4_multi_turn_base.json")}
results = {}
for task in json_lines(corpus + "BFCL_v4_multi_turn_base.json"):
    if not set(task["involved_classes"]) <= set(CLASSES):
        continue
    scope = {}
    for name in task["involved_classes"]:
        instance = CLASSES[name]()
        if name not in STATELESS:
            instance._load_scenario(copy.deepcopy(task["initial_config"].get(name, {})))
        for method in dir(instance):
            if not method.startswith("_") and callable(getattr(instance, method)):
                scope[method] = getattr(instance, method)
    turns = []
    for turn in answers[task["id"]]:
        answered = []
        for call in turn:
            try:
                value = eval(call, {}, scope)
                try:
                    value = json.loads(json.dumps(value))
                except TypeError:
                    value = {"__repr__": str(value)}
            except Exception as error:  # what BFCL's executor turns into "Error during execution: ..."
                value = {"__exception__": str(error)}
            answered.append(value)
        turns.append(answered)
    results[task["id"]] = turns

with open("python-results.json", "w") as out:
    json.dump(results, out, indent=2)
    out.write("\n")
