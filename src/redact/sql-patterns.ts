/**
 * SQL statements, the SQL context lines of database errors, the values and identifiers database errors
 * quote, and GraphQL documents.
 */

import { containsAny, containsAnyIgnoringCase, type RedactionPattern } from './redaction-pattern.js';

/** A table or column name, quoted or not, in any script: anything but whitespace and SQL punctuation. */
const IDENT = String.raw`[^\s(),;=]{1,128}`;
/** The rest of a line, where a string literal opened on it may close on a later line. */
const SQL_REST = String.raw`(?:[^\n']+|'[^']{0,2000}'|'[^\n]*)*`;
const SQL_KEYWORD = String.raw`(?:SELECT|INSERT|UPDATE|DELETE|WITH|FROM|WHERE|(?:(?:LEFT|RIGHT|FULL|INNER|CROSS)\s+(?:OUTER\s+)?)?JOIN|ORDER\s+BY|GROUP\s+BY|HAVING|LIMIT|OFFSET|VALUES|SET|RETURNING|UNION|ON\s+CONFLICT|AND|OR)\b`;
/**
 * Lines that go on with a statement: indented, starting with a keyword or a parenthesis, a `--` comment,
 * or the parameters drivers print after it (`params: …`, `-- PARAMETERS: […]`).
 */
const SQL_CONTINUATION = String.raw`(?:\n(?:[ \t]+\S|[ \t]*(?:${SQL_KEYWORD}|[()]|--|(?:params|parameters|bindings|binds)\b))${SQL_REST})*`;
const DDL_OBJECT = 'TABLE|INDEX|VIEW|SCHEMA|DATABASE|SEQUENCE|FUNCTION|PROCEDURE|TRIGGER|EXTENSION|TYPE';

/** Uppercase SQL: the keywords alone are a strong enough signal. */
const SQL_UPPER = new RegExp(
  String.raw`\b(?:SELECT\b[\s\S]{0,200}?\bFROM\b|INSERT\s+(?:IGNORE\s+)?INTO\b|REPLACE\s+INTO\b|UPDATE\s+${IDENT}\s+SET\s+${IDENT}\s*=|DELETE\s+FROM\b|(?:CREATE|DROP|ALTER|TRUNCATE)(?:\s+[A-Z]+){0,3}?\s+(?:${DDL_OBJECT})\b|WITH\s+(?:RECURSIVE\s+)?\S{1,128}\s+AS\s*\(|MERGE\s+INTO\b|CALL\s+[\w.$\x60"\[\]]{1,128}\s*\(|EXEC(?:UTE)?\s+(?:@\w|[\w\[\]]{1,128}\.)|EXEC\s+sp_\w)${SQL_REST}${SQL_CONTINUATION}`,
  'g',
);

/** A column of a select list: a name (quoted, qualified), a call, or `*`, with an optional alias. */
const COLUMN = String.raw`[\w."\x60*]{1,128}(?:\([^()\n]{0,100}\))?(?:\s+as\s+\w{1,64})?`;
/** A list of columns, ending right before FROM: `id, email from`, not `one, two or three seats from`. */
const COLUMN_LIST = String.raw`\w+\s*,\s*(?:${COLUMN}\s*,\s*)*${COLUMN}\s+from\b`;
/** What follows `insert into t (`: a column and a comma, or one column and VALUES/SELECT, not `(max 5 …)`. */
const INSERT_COLUMNS = String.raw`\(\s*["\x60\[]?[^\s(),;'"\x60\[\]]{1,128}["\x60\]]?\s*(?:,|\)\s*(?:values|select|default|output|overriding)\b)`;

/**
 * Any-case SQL (knex, drizzle): needs the shape of a statement, so "please select a file from the list",
 * "select all, then remove … from", "insert into cart (max 5)" and "share with friends as (a gift)" survive.
 */
const SQL_ANY_CASE = new RegExp(
  String.raw`\b(?:select\s+(?:distinct\s+)?(?:(?:\*|count\s*\(|["\x60\[]|\w+\.["\x60\w*])[\s\S]{0,200}?\bfrom\b|${COLUMN_LIST})|select\s+\w+\s+from\s+${IDENT}\s+(?:where|join|order|group|limit)\b|(?:insert|replace)\s+(?:ignore\s+)?into\s+${IDENT}\s*(?:${INSERT_COLUMNS}|values\b|select\b|default\b)|update\s+${IDENT}\s+set\s+${IDENT}\s*=|delete\s+from\s+${IDENT}(?=\s*(?:where\b|using\b|returning\b))|(?:create|drop|alter|truncate)\s+(?:[a-z]+\s+){0,3}?(?:${DDL_OBJECT})\s+(?:if\s+(?:not\s+)?exists\s+)?["\x60\[]|with\s+(?:recursive\s+)?["\x60]?\w{1,128}["\x60]?\s+as\s*(?:(?:not\s+)?materialized\s*)?\(\s*(?:select|insert|update|delete|values|with|table)\b|call\s+[\w.$]{1,128}\(|exec(?:ute)?\s+(?:sp_\w|[\w\[\]]{1,128}\.\w))${SQL_REST}${SQL_CONTINUATION}`,
  'gi',
);

/**
 * Where a statement stands on its own: the start of a line, or after `:`, `;`, `(`, `=`, `>` or a quote
 * (`query: select 1`, `'select 1'`, `(select sysdate)`), not after a word (`Cannot delete from archive`).
 */
const STATEMENT_START = String.raw`(?<=(?:^|[\n:;(=>"'\x60\[])[ \t]{0,8})`;
/**
 * A select list that only SQL writes: `*`, a call (not `file(s)`), `@@x`, `$1`, `case when`, quoted or
 * qualified columns, snake_case names.
 */
const SQL_ONLY_SELECT_LIST = String.raw`(?:(?:distinct|DISTINCT)\s+)?(?:\*(?=\s*(?:$|\n|[,;)'"\x60]|from\b|FROM\b|-\s))|[A-Za-z_][\w.$]{0,63}\((?!e?s\))|@@\w|\$\d|(?:case|CASE)\s+(?:when|WHEN)\b|"[a-z_][\w$]{0,63}"\s*(?:,|\.|as\b|AS\b)|\x60[^\x60\n]{1,64}\x60|[A-Za-z_]\w{0,63}\.(?:\*|[A-Za-z_]\w{0,63})\s*,|[a-z][a-z0-9]{0,63}_\w)`;
/**
 * A select list a sentence could also hold (`select 1`, `select 'ok' as x`, `select sysdate`): only where
 * a statement stands.
 */
const STANDALONE_SELECT_LIST = String.raw`(?:'[^'\n]{0,64}'\s+(?:as|AS)\s+\w|(?:\d+(?:\.\d+)?|sysdate|systimestamp|localtimestamp|SYSDATE|SYSTIMESTAMP)(?=\s*(?:$|\n|[;)+*/=\-'"\x60]|as\b|AS\b|from\b|FROM\b)))`;

/**
 * Statements with no clause after the keyword, written in one case as SQL is (`select 1`, `SELECT
 * pg_cancel_backend(42)`, `delete from sessions`): a sentence writes `Select all`, `Delete from archive`.
 */
const SQL_CLAUSELESS = new RegExp(
  String.raw`\b(?:select|SELECT)[ \t]+${SQL_ONLY_SELECT_LIST}${SQL_REST}${SQL_CONTINUATION}|${STATEMENT_START}(?:(?:select|SELECT)[ \t]+${STANDALONE_SELECT_LIST}|(?:delete[ \t]+from|DELETE[ \t]+FROM)[ \t]+${IDENT}(?=[ \t]*(?:;|\n|$)))${SQL_REST}${SQL_CONTINUATION}`,
  'g',
);

/** A name as database errors quote it: `"a"`, `"a"."b"`, `'a.b'`, `` `a` ``, `[a]`. */
const QUOTED_NAME = String.raw`(?:"[^"\n]{1,128}"(?:\."[^"\n]{1,128}")*|'[^'\n]{1,128}'|\x60[^\x60\n]{1,128}\x60|\[(?!redacted:)[^\]\n]{1,128}\])`;
const DATABASE_OBJECT =
  'relation|table|column|schema|database|role|user|constraint|index|sequence|view|function|procedure|trigger|object|collection|key|extension|tablespace';
/**
 * OpenSSH's verbs before a key file's name (`Load key "deploy_key": invalid format`, `Error loading key`,
 * `Enter passphrase for key 'id_ed25519':`, `Saving key "…" failed`): there the quoted word names a file.
 */
export const KEY_FILE_VERBS = String.raw`\b(?:load|loading|saving|passphrase for)[ \t]+`;
const KEY_FILE_VERB = `(?<!${KEY_FILE_VERBS})`;

export const SQL_PATTERNS: readonly RedactionPattern[] = [
  {
    kind: 'sql',
    pattern: SQL_UPPER,
    mayMatch: containsAny(
      'SELECT',
      'INSERT',
      'REPLACE',
      'UPDATE',
      'DELETE',
      'CREATE',
      'DROP',
      'ALTER',
      'TRUNCATE',
      'WITH',
      'MERGE',
      'CALL',
      'EXEC',
    ),
  },
  {
    kind: 'sql',
    pattern: SQL_ANY_CASE,
    mayMatch: containsAnyIgnoringCase(
      'select',
      'insert',
      'replace',
      'update',
      'delete',
      'create',
      'drop',
      'alter',
      'truncate',
      'with',
      'call',
      'exec',
    ),
  },
  { kind: 'sql', pattern: SQL_CLAUSELESS, mayMatch: containsAny('select', 'SELECT', 'delete', 'DELETE') },
  // The statement PostgreSQL quotes under an error: `LINE 1: SELECT …`.
  { kind: 'sql', pattern: /(?<pre>^LINE \d+: )[^\n]*/gm, mayMatch: containsAny('LINE ') },
  // Row data and values in database errors.
  {
    kind: 'value',
    pattern: /(?<pre>\bKey \([^)\n]{1,200}\)=\()[^\n]{0,500}?(?=\)(?:[\s.,;]|$))/g,
    mayMatch: containsAny('Key ('),
  },
  {
    kind: 'value',
    pattern: /(?<pre>\bFailing row contains )\([^\n]*/g,
    mayMatch: containsAny('Failing row contains '),
  },
  {
    kind: 'value',
    pattern: /(?<pre>\bDuplicate entry )'[^'\n]{0,500}'?/g,
    mayMatch: containsAny('Duplicate entry '),
  },
  {
    kind: 'value',
    pattern:
      /(?<pre>\b(?:invalid input (?:syntax|value) for (?:type |enum )?[\w .[\]]{1,64}?:|syntax error at or near|(?:Incorrect|Truncated incorrect|Invalid) [\w ]{1,40}? value:)[ \t]*)(?:"(?:[^"\n]|""){0,500}"?|'(?:[^'\n]|''){0,500}'?)/gi,
    mayMatch: containsAnyIgnoringCase('invalid input', 'at or near', ' value:'),
  },
  {
    kind: 'value',
    pattern: /(?<pre>\bto use near )'[^\n]{0,500}?'(?= at line \d)/g,
    mayMatch: containsAny('to use near'),
  },
  {
    kind: 'value',
    pattern:
      /(?<pre>\bdup key: )\{[^}\n]{0,500}\}?|(?<pre2>\bduplicate key value is )\([^\n]{0,500}?\)(?=[.\s]|$)/g,
    mayMatch: containsAny('dup key: ', 'duplicate key value is '),
  },
  // GraphQL errors quoting the value of a variable or argument.
  {
    kind: 'value',
    pattern: /(?<pre>\b(?:got|has) invalid value )[^;\n]{1,500}/g,
    mayMatch: containsAny('invalid value '),
  },
  // Names of tables, columns, roles, constraints… as database errors quote them.
  {
    kind: 'identifier',
    pattern: new RegExp(
      String.raw`(?<pre>\b(?:${DATABASE_OBJECT.replace('key', `${KEY_FILE_VERB}key`)})[ \t]+)${QUOTED_NAME}`,
      'gi',
    ),
    mayMatch: containsAnyIgnoringCase(...DATABASE_OBJECT.split('|')),
  },
  {
    kind: 'identifier',
    pattern:
      /(?<pre>\bpermission denied for (?:table|relation|schema|database|sequence|function|view|procedure)[ \t]+)[\w.$]{1,128}|(?<pre2>\b(?:PROCEDURE|FUNCTION|procedure|function)[ \t]+)[\w$]{1,128}\.[\w.$]{1,128}/g,
    mayMatch: containsAnyIgnoringCase('permission denied for', 'procedure', 'function'),
  },
  // A GraphQL document: operation, optional name and variables, selection set, to the end of the line.
  {
    kind: 'graphql',
    pattern:
      /(?<![\w-])(?:query|mutation|subscription)(?:[ \t]+[A-Za-z_]\w{0,127})?[ \t]*(?:\([^)\n]{0,500}\))?[ \t]*\{[^\n]*/g,
    mayMatch: containsAny('query', 'mutation', 'subscription'),
  },
];
