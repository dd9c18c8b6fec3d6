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

/** Any-case SQL (knex, drizzle): needs the shape of a statement, so "please select a file from the list" survives. */
const SQL_ANY_CASE = new RegExp(
  String.raw`\b(?:select\s+(?:distinct\s+)?(?:\*|count\s*\(|["\x60\[]|\w+\.["\x60\w*]|\w+\s*,)[\s\S]{0,200}?\bfrom\b|select\s+\w+\s+from\s+${IDENT}\s+(?:where|join|order|group|limit)\b|(?:insert|replace)\s+(?:ignore\s+)?into\s+${IDENT}\s*(?:\(|values\b|select\b|default\b)|update\s+${IDENT}\s+set\s+${IDENT}\s*=|delete\s+from\s+${IDENT}(?=\s*(?:where\b|using\b|returning\b|;|\n|$))|(?:create|drop|alter|truncate)\s+(?:[a-z]+\s+){0,3}?(?:${DDL_OBJECT})\s+(?:if\s+(?:not\s+)?exists\s+)?["\x60\[]|with\s+(?:recursive\s+)?["\x60]?\w{1,128}["\x60]?\s+as\s*\(|call\s+[\w.$]{1,128}\(|exec(?:ute)?\s+(?:sp_\w|[\w\[\]]{1,128}\.\w))${SQL_REST}${SQL_CONTINUATION}`,
  'gi',
);

/** A name as database errors quote it: `"a"`, `"a"."b"`, `'a.b'`, `` `a` ``, `[a]`. */
const QUOTED_NAME = String.raw`(?:"[^"\n]{1,128}"(?:\."[^"\n]{1,128}")*|'[^'\n]{1,128}'|\x60[^\x60\n]{1,128}\x60|\[(?!redacted:)[^\]\n]{1,128}\])`;
const DATABASE_OBJECT =
  'relation|table|column|schema|database|role|user|constraint|index|sequence|view|function|procedure|trigger|object|collection|key|extension|tablespace';

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
    pattern: new RegExp(String.raw`(?<pre>\b(?:${DATABASE_OBJECT})[ \t]+)${QUOTED_NAME}`, 'gi'),
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
