/**
 * Short `select` statements with no `FROM` or other clause after them, as drivers, pools, ORMs and
 * warehouses quote them: health checks (`select 1`), functions (`select pg_advisory_lock(…)`,
 * `select nextval('…')`), column lists a message was cut after, `@@` variables, `case when`,
 * placeholders. They name functions, sequences, settings and columns a model has no use for.
 */

import { classCases } from './class-cases.js';
import type { HostileErrorMessage } from './hostile-error-messages.js';

const database = classCases('database', 'short select with no clause');

export const SHORT_SELECT_MESSAGES: readonly HostileErrorMessage[] = [
  database('knex pool validation query', 'select 1 - Connection terminated unexpectedly', ['select 1']),
  database(
    'pg statement timeout on an advisory lock',
    'canceling statement due to statement timeout: select pg_advisory_lock(74219)',
    ['pg_advisory_lock', '74219'],
  ),
  database(
    'Sequelize log line',
    'Executing (default): select now() as "serverTime" -> SequelizeConnectionError: connect ETIMEDOUT',
    ['select now()', 'serverTime'],
  ),
  database(
    'health check quoting its query',
    "Health check failed: validation query 'select 1' returned no rows after 5000 ms",
    ['select 1'],
  ),
  database(
    'Oracle refusing a select without FROM',
    'ORA-00923: FROM keyword not found where expected (select sysdate)',
    ['select sysdate'],
  ),
  database(
    'MySQL missing function',
    'ER_SP_DOES_NOT_EXIST: FUNCTION shop.uuid_v7 does not exist: select uuid_v7()',
    ['uuid_v7()'],
  ),
  database(
    'row-level security setting',
    'prepared statement "s7" failed: select set_config(\'app.tenant_id\', $1, false)',
    ['set_config', 'app.tenant_id'],
  ),
  database(
    'ClickHouse unknown function',
    'Code: 46. DB::Exception: Unknown function toStartOfDay2: While processing select toStartOfDay2(now()). (UNKNOWN_FUNCTION)',
    ['toStartOfDay2(now())'],
  ),
  database('slow query log with a sequence', "Slow query (2412 ms): select nextval('invoice_number_seq')", [
    'invoice_number_seq',
  ]),
  database(
    'Redshift function permission',
    'ERROR: permission denied for function decrypt_ssn; query: select decrypt_ssn($1)',
    ['decrypt_ssn($1)'],
  ),
  database(
    'Prisma raw query',
    "Raw query failed. Code: `42883`. Message: `function crypt(unknown, text) does not exist`. Query: select crypt($1, gen_salt('bf'))",
    ["gen_salt('bf')", 'select crypt'],
  ),
  database(
    'Snowflake invalid identifier in a column list',
    "SQL compilation error: error line 1 at position 7 invalid identifier 'CUSTOMER_SSN' in select customer_ssn, customer_dob",
    ['customer_ssn, customer_dob'],
  ),
  database(
    'node-postgres closed client',
    'Client was closed and is not queryable: select pg_try_advisory_lock(918273)',
    ['pg_try_advisory_lock', '918273'],
  ),
  database(
    'SQL Server identity variable',
    "RequestError: Invalid column name 'TaxId'. (statement: select @@identity)",
    ['select @@identity'],
  ),
  database(
    'upper-case function call',
    'canceling statement due to user request: SELECT pg_cancel_backend(4412)',
    ['pg_cancel_backend(4412)'],
  ),
  database(
    'drizzle message cut after the column list',
    'Failed query: select "id", "email", "password_hash", "mfa_secret"\nparams: ',
    ['"password_hash"', '"mfa_secret"'],
  ),
  database(
    'qualified columns, message cut',
    'Query too long to log, first 60 characters: select u.id, u.email, u.ssn, u.date_of_birth',
    ['u.ssn', 'u.date_of_birth'],
  ),
  database(
    'case expression',
    "syntax error at end of input: select case when balance_cents > 100000 then 'vip'",
    ['balance_cents', "then 'vip'"],
  ),
  database('bare placeholder with a cast', 'could not determine data type of parameter $1: select $1::text', [
    'select $1::text',
  ]),
  database(
    'SQLite JSON function',
    "SQLITE_ERROR: no such function: json_extract_path (select json_extract_path(payload, '$.user.email'))",
    ["'$.user.email'", 'json_extract_path(payload'],
  ),
  database(
    'MySQL current_user after a colon',
    'Access denied; you need the SUPER privilege for this operation: select current_user',
    ['select current_user'],
  ),
  database(
    'literal with an alias',
    "DuckDB Binder Error while binding: select 'ok' as status, pi() as ratio",
    ["'ok' as status", 'pi() as ratio'],
  ),
];
