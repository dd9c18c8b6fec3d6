// A module that fails while loading, for a reason that has nothing to do with its tools.
throw new Error('ORDERS_DB_URL is not set');
