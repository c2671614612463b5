"""Channel-layer group names of live tables."""


def public_group(table_id: int) -> str:
    """Every socket at the table: its changes (each socket sends its own view of them)
    and its notices."""
    return f"table-{table_id}"


def private_group(table_id: int, user_id: int) -> str:
    """One member's sockets at the table: their own view of it."""
    return f"table-{table_id}-user-{user_id}"


def chat_group(table_id: int) -> str:
    """Everyone with the table open, seated or not: its chat."""
    return f"table-{table_id}-chat"
