"""Firefox: fill a registration form (text, select, radio, date, textarea, check boxes)
and submit it."""
from common import run
from web_common import registration

run(registration)
