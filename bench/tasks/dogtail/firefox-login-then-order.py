"""Firefox: sign in, then order (product, quantity, delivery, note) on the next page."""
from common import run
from web_common import sign_in_and_order

run(sign_in_and_order)
