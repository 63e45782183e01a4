"""A small VCD reader (no package needed): scopes, variables, timestamps, scalar and vector
changes; enough for starnuma's waves (ours, or GTKWave's fst2vcd's from an FST). Used by the tests
(tests/debug/check_waves.py) and the worked examples (experiments/debugging_figures.py).
"""


def parse(path):
    """Returns (signals {full_name: [(time, value)]}, first_time, last_time)."""
    ids, changes, scope = {}, {}, []
    first = last = None
    t = 0
    with open(path) as f:
        in_header = True
        for line in f:
            words = line.split()
            if not words:
                continue
            if in_header:
                if words[0] == "$scope":
                    scope.append(words[2])
                elif words[0] == "$upscope":
                    scope.pop()
                elif words[0] == "$var":
                    name = ".".join(scope + [words[4]])
                    ids.setdefault(words[3], []).append(name)
                    changes[name] = []
                elif words[0] == "$enddefinitions":
                    in_header = False
                continue
            w = words[0]
            if w.startswith("#"):
                t = int(w[1:])
                first = t if first is None else first
                last = t
            elif w[0] in "01xzXZ" and len(words) == 1:
                for name in ids.get(w[1:], []):
                    changes[name].append((t, 0 if w[0] in "xzXZ" else int(w[0])))
            elif w[0] in "bB":
                value = int(w[1:].replace("x", "0").replace("z", "0"), 2)
                for name in ids.get(words[1], []):
                    changes[name].append((t, value))
    return changes, first, last


def time_integral(changes, start, end):
    """The value integrated over [start, end): for a 1-bit signal, the time it is 1; over the
    window's length, a queue's mean depth."""
    total, level, since = 0, 0, start
    for t, v in changes:
        if t >= end:
            break
        if t > since:
            total += level * (t - since)
            since = t
        level = v
    if end > since:
        total += level * (end - since)
    return total


def value_at(changes, t):
    """The value at time t."""
    value = 0
    for when, v in changes:
        if when > t:
            break
        value = v
    return value


def rising_edges(clock):
    """The times a 1-bit signal goes from 0 to 1."""
    return [t for i, (t, v) in enumerate(clock) if v == 1 and (i == 0 or clock[i - 1][1] == 0)]
