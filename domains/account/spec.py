"""Account: sign-in help, profile updates, security, closure and two-factor resets.

Identity verification (`domains/identity.py`) is required before every one of them.
"""

from __future__ import annotations

from pathlib import Path

from callcenter.routing.calibration import OOS
from callcenter.routing.rereading import Rereading, never
from domains.account.actions import ACTIONS
from domains.account.close_account import CloseAccountTask
from domains.account.glossary import GLOSSARY
from domains.account.lock_words import (
    asks_for_lock,
    asks_unlock,
    asks_unlock_alone,
    changed_by_someone_else,
    changes_contact,
    closes_account,
    ends_nothing_but_the_account,
    keeps_as_is,
    lock_is_not_the_trouble,
    locked_out,
    names_no_ending,
    phone_gone,
    phone_gone_code_asked,
    says_locked,
    sign_in_fails,
    sign_ins_by_someone_else,
)
from domains.account.login_help import HelpLoginTask
from domains.account.profile_update import UpdateProfileTask
from domains.account.security import SecureAccountTask, asks_to_lock, lookup_security
from domains.account.supervisor import AccountSupervisorTask
from domains.account.two_factor_reset import ResetTwoFactorTask
from domains.base import DomainSpec, SpecialistSpec, Wording

# "how do i change the email my plan invoices go to": the email changes, not the plan
CONTACT_CHANGED = Rereading(
    # "stop sending everything to my old email, it should go to ...": no closure, unless the
    # words also end the account
    over=frozenset({"billing/plan_change", "billing/invoices", "account/close_account"}),
    label="account/profile_update",
    target=changes_contact,
    whole=closes_account,
    unsure=never,
    settles_own=True,  # read as the change, unsure of it: the words say it, and its read-back comes first
)

# "i want my account locked right now", "get my account frozen": the security specialist's lock,
# not a sign-in problem and never a closure.
ASKS_LOCK = Rereading(
    over=frozenset({"account/login_help", "account/close_account"}),
    label="account/security",
    target=asks_for_lock,
    whole=locked_out,
    unsure=never,
)

# "it says my account is locked and i didn't do anything", "why is my account locked": a sign-in
# problem (what locked it, and the unlock's call back), not a lock offered again; a lock asked
# for or sign-ins someone else made stay security's.
LOCKED_OUT = Rereading(
    # "the app keeps saying my account is locked": no lost authenticator either
    over=frozenset({"account/security", "account/two_factor_reset"}),
    label="account/login_help",
    target=says_locked,
    whole=lock_is_not_the_trouble,
    unsure=never,
)

# "unlock the account would you please": the unlock's call back, which sign-in help books; not
# the lock, nor the closure that "the account" sounds like (unless the words end the account).
# "how do i unlock, está bloqueada": read as nothing the line does, or as a how-to
UNLOCK_ALONE = Rereading(
    over=frozenset({OOS, "technical/integration_help"}),
    label="account/login_help",
    target=asks_unlock_alone,
    whole=closes_account,
    unsure=never,
)

UNLOCK_ASKED = Rereading(
    over=frozenset({"account/security", "account/two_factor_reset", "account/close_account"}),
    label="account/login_help",
    target=asks_unlock,
    whole=closes_account,
    unsure=never,
)

# "so my phone died, like completely, and the authenticator was on it": the two-factor reset.
PHONE_GONE = Rereading(
    over=frozenset({"account/close_account"}),
    label="account/two_factor_reset",
    target=phone_gone,
    whole=closes_account,
    unsure=never,
)

# "... dropped my phone in the harbour, and now when i log in it wants that code from the app":
# the two-factor reset, however much the sign-in's words read as security or sign-in help
PHONE_GONE_AT_SIGN_IN = Rereading(
    over=frozenset({"account/security", "account/login_help"}),
    label="account/two_factor_reset",
    target=phone_gone_code_asked,
    whole=closes_account,
    unsure=never,
)

# "who's been signing into my account", "logins from romania that weren't me": security's review,
# not a sign-in problem, unless the caller also says they cannot get in.
SOMEONE_ELSES = Rereading(
    # "so you're sure nobody else got in" reads as small talk ("you're sure"), or a goodbye
    # OOS: "can you check who's been trying to get into my stuff" reads as nothing the line does
    over=frozenset({"account/login_help", "meta/smalltalk", "meta/goodbye", OOS}),
    label="account/security",
    target=sign_ins_by_someone_else,
    whole=locked_out,
    # read as security already but close to a sign-in problem: the construction settles it
    unsure=sign_ins_by_someone_else,
)

# "login's broken": signing in fails, sign-in help's, not a question between it and the account's
# security (a sign-in someone else made stays security's)
SIGN_IN_FAILS = Rereading(
    over=frozenset({"account/security", "account/two_factor_reset", OOS}),
    label="account/login_help",
    target=sign_in_fails,
    whole=never,
    unsure=never,
    settles_own=True,  # sign-in help reads and emails a reset link; the unlock is read back first
)

# "i was thinking about closing my account": the closure named outright, not a question between
# it and the account's security (the closure is read back and nothing ends without a yes).
CLOSURE_NAMED = Rereading(
    over=frozenset({"account/security"}),
    label="account/close_account",
    target=closes_account,
    whole=ends_nothing_but_the_account,
    unsure=never,
    settles_own=True,  # read as the closure, unsure of it: the words say it, its read-back comes first
)

# "someone changed my email address last night": a change nobody asked for is security's review.
CHANGED_BY_SOMEONE = Rereading(
    over=frozenset({"account/profile_update", "account/login_help", "account/two_factor_reset"}),
    label="account/security",
    target=changed_by_someone_else,
    whole=never,
    unsure=never,
    # "... a password reset i never asked for" read as security, unsure of it (0.59): the review of
    # the sign-ins changes nothing, and a lock is read back first
    settles_own=True,
)

# "i was charged twice, and we only have the one account": beside other needs, a clause read
# as the closure with no word that ends anything is no request of its own.
# "no, leave it as it is": things kept as they are, no closure ("close it, or leave it as it is?"
# is not a request either way; the account's own words end it: "leave it, just close my account").
KEPT_AS_IS = Rereading(
    over=frozenset({"account/close_account"}),
    label=OOS,
    target=keeps_as_is,
    whole=closes_account,
    unsure=never,
)

NO_ENDING = Rereading(
    over=frozenset({"account/close_account"}),
    label=OOS,
    target=names_no_ending,
    whole=never,
    unsure=never,
    beside_only=True,
)

DOMAIN = DomainSpec(
    name="account",
    description=(
        "Transfer the caller to account services: cannot log in or reset password, change email or "
        "phone, security concerns and locking the account, closing the account, two-factor resets.\n\n"
        "Args:\n    request: The part of the caller's words that is about their account."
    ),
    topic="your account",
    wording=Wording(offer="your account", ask="your account", prompt="accounts"),
    actions=ACTIONS,
    supervisor=AccountSupervisorTask,
    rereadings=(CONTACT_CHANGED, ASKS_LOCK, SIGN_IN_FAILS, LOCKED_OUT, UNLOCK_ASKED, UNLOCK_ALONE, CLOSURE_NAMED, SOMEONE_ELSES, PHONE_GONE, PHONE_GONE_AT_SIGN_IN, KEPT_AS_IS, NO_ENDING,
                CHANGED_BY_SOMEONE),
    specialists=(
        SpecialistSpec("login_help", HelpLoginTask, "Route to sign-in help: cannot log in, forgot or reset password.", "signing in", called="signing in"),
        SpecialistSpec("profile_update", UpdateProfileTask, "Route to profile updates: change email or phone.", "changing your email or phone", called="the contact details change", changes=True),
        SpecialistSpec("security", SecureAccountTask, "Route to security: hacked, suspicious sign-ins, lock the account.", "securing your account", called="your account's security",
                       lookup=lookup_security, acts_on=asks_to_lock, acted="your account locked"),
        SpecialistSpec("close_account", CloseAccountTask, "Route to account closure: close, cancel or delete the account.", "closing your account", called="closing your account", changes=True),
        SpecialistSpec("two_factor_reset", ResetTwoFactorTask, "Route to two-factor reset: lost phone, authenticator codes.", "resetting two-factor authentication", called="the two-factor reset", changes=True),
    ),
    utterances=Path(__file__).parent / "utterances",
    glossary=GLOSSARY,
)
AccountSupervisorTask.spec = DOMAIN
