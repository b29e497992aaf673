"""HTTP handlers for orders."""

from decimal import Decimal


class OrderService:
    def __init__(self, repository):
        self.repository = repository

    def total(self, order_id: int) -> Decimal:
        order = self.repository.get(order_id)
        return sum((line.price * line.quantity for line in order.lines), Decimal("0"))

    def cancel(self, order_id: int) -> None:
        order = self.repository.get(order_id)
        order.status = "cancelled"
        self.repository.save(order)
