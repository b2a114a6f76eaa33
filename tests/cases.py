"""What the Python case scripts of the tests share (field-match-cases.py for
t77, bench-lttd-cases.py for t79): one 'ok - WHAT' or 'not ok - WHAT' line
per check, and an end line that the shell test asks for (lib.sh's
cases_report), so that a script cut short by an exit or a traceback in the
code under test cannot pass as complete."""
import sys

END = 'end of cases'
failed = 0


def check(what, got, want):
    """One case: got must equal want."""
    global failed
    if got == want:
        print('ok - %s' % what)
    else:
        failed += 1
        print('not ok - %s: got %r, want %r' % (what, got, want))


def end():
    """The end line, then exit 1 when a case failed."""
    print(END)
    sys.exit(1 if failed else 0)
