"""Secret columns never answer a question in the admin, whoever asks (superusers included).

A changelist filter is an oracle: `/admin/games/match/?id__exact=N&server_seed__startswith=ab`
shows the row or hides it, so a live match's secret server seed (games/fairness: its dice) came
out one hex digit at a time to anyone who could view matches. The same holds for any column that
must stay secret: the server seeds of matches and pool waits, invite tokens, password hashes and
the authenticators' TOTP secrets.

A column is secret when its name says so (`seed`, `token`, `secret`, `key`, `password`: a new
column named that way is covered without a change here) or it is listed in SECRET_COLUMNS. The
public client seeds match the rule too; nobody needs to filter on them.

`SecretColumnsGuard` (a ModelAdmin mixin) refuses every lookup whose path touches a secret
column, through any relation: query-string filters (Django answers 400), `_to_field`; it also
keeps secret columns out of the change form and the read-only fields. Search and ordering are
fixed by each admin's configuration, so `guard_problems` (run by `manage.py check` for every
registered admin, and by the tests) refuses any configured search field, filter, column, sort
or date hierarchy that reaches a secret, and requires the guard wherever the model itself holds
a secret column (Django allows any lookup on a model's own columns; across a relation it allows
only the configured filters).
"""

from __future__ import annotations

from django.contrib import admin
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models.constants import LOOKUP_SEP

SECRET_WORDS = ("seed", "token", "secret", "key", "password")
# Secret columns whose names do not say so: (app label, model name) -> column names.
SECRET_COLUMNS = {
    ("mfa", "authenticator"): {"data"},  # allauth's TOTP secret and recovery-code seed
    ("sessions", "session"): {"session_data"},
}


def is_secret(field: models.Field | models.ForeignObjectRel) -> bool:
    name = field.name.lower()
    listed = SECRET_COLUMNS.get((field.model._meta.app_label, field.model._meta.model_name), ())
    return any(word in name for word in SECRET_WORDS) or field.name in listed


def secret_columns(model: type[models.Model]) -> list[str]:
    """The model's own secret columns."""
    return [field.name for field in model._meta.get_fields() if is_secret(field)]


def reaches_secret(model: type[models.Model], lookup: str) -> bool:
    """Whether a lookup path (`match__server_seed__startswith`, `-invite_token`,
    `^user__password`) reads a secret column, here or through relations."""
    lookup = lookup.lstrip("-^=@")
    for part in lookup.split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False  # a transform or lookup name: the columns are behind us
        if is_secret(field):
            return True
        if not field.is_relation or field.related_model is None:
            return False
        model = field.related_model
    return False


class SecretColumnsGuard:
    """Mix into a ModelAdmin before admin.ModelAdmin. `shown_secret_columns`: secret columns
    the change form still shows because its widget masks them (the user's password hash)."""

    shown_secret_columns: tuple[str, ...] = ()

    def lookup_allowed(self, lookup, value, request=None) -> bool:
        if reaches_secret(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)

    def to_field_allowed(self, request, to_field) -> bool:
        if reaches_secret(self.model, to_field):
            return False
        return super().to_field_allowed(request, to_field)

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        return [name for name in fields if not self._hidden_secret(name)]

    def get_exclude(self, request, obj=None):
        excluded = list(super().get_exclude(request, obj) or ())
        hidden = [name for name in secret_columns(self.model) if self._hidden_secret(name)]
        return excluded + [name for name in hidden if name not in excluded]

    def _hidden_secret(self, name: str) -> bool:
        return name not in self.shown_secret_columns and reaches_secret(self.model, name)


def _configured_paths(model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
    """(option, path) for every path the admin's configuration queries or shows."""
    paths = [("search_fields", name) for name in model_admin.search_fields or ()]
    paths += [("ordering", name) for name in model_admin.ordering or ()]
    paths += [("sortable_by", name) for name in model_admin.sortable_by or ()]
    if model_admin.date_hierarchy:
        paths.append(("date_hierarchy", model_admin.date_hierarchy))
    for item in model_admin.list_filter or ():
        if isinstance(item, str):
            paths.append(("list_filter", item))
        elif isinstance(item, (list, tuple)):
            paths.append(("list_filter", item[0]))
        # A SimpleListFilter runs its own query on its own parameter: nothing to follow.
    for name in model_admin.list_display or ():
        if isinstance(name, str):
            paths.append(("list_display", name))
            shown = getattr(model_admin, name, None)
        else:
            shown = name
        order = getattr(shown, "admin_order_field", None)
        if isinstance(order, str):
            paths.append(("list_display", order))
    shown_secrets = getattr(model_admin, "shown_secret_columns", ())
    paths += [("readonly_fields", name) for name in model_admin.readonly_fields or ()
              if name not in shown_secrets]  # fmt: skip
    return paths


def guard_problems(model_admin: admin.ModelAdmin) -> list[checks.Error]:
    model = model_admin.model
    label = f"{type(model_admin).__module__}.{type(model_admin).__qualname__}"
    problems = [
        checks.Error(
            f"{label}.{option} reaches the secret column through {path!r}.",
            hint="Secret columns never answer a query in the admin (moderation/admin_secrets.py).",
            obj=type(model_admin),
            id="moderation.E001",
        )
        for option, path in _configured_paths(model_admin)
        if path and reaches_secret(model, path)
    ]
    if secret_columns(model) and not isinstance(model_admin, SecretColumnsGuard):
        problems.append(
            checks.Error(
                f"{label} shows {model._meta.label}, which holds secret columns "
                f"{secret_columns(model)}, without SecretColumnsGuard.",
                hint="Mix moderation.admin_secrets.SecretColumnsGuard into it.",
                obj=type(model_admin),
                id="moderation.E002",
            )
        )
    return problems


def check_admin_secrets(app_configs=None, **kwargs) -> list[checks.Error]:
    """Every admin registered on the site (ours and the libraries')."""
    from django.apps import apps

    problems: list[checks.Error] = []
    for model in apps.get_models():
        if admin.site.is_registered(model):
            problems += guard_problems(admin.site.get_model_admin(model))
    return problems
