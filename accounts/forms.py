from django import forms

from accounts.models import User


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["language", "auto_roll"]
