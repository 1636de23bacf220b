#!/bin/sh
# Ad hoc: boots and ends (not a test).
. ./guest.sh
ktap_plan 1
ktap_ok booted
ktap_finish
