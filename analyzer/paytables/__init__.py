"""Paytables as data: the condition language, the bet model, settlement, the shipped library
and published claims."""
