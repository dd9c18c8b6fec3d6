/**
 * Oracle credentials in the `user/password@connect-identifier` form: Oracle thin and OCI JDBC URLs
 * (`jdbc:oracle:thin:user/password@host:port/service`, `@//host…`, `@(DESCRIPTION=…)`), and the same
 * form on the command lines of SQL*Plus, SQLcl, Data Pump, SQL*Loader, RMAN and DGMGRL, after
 * `CONNECT`, `userid=`, and in python-oracledb / cx_Oracle connect strings.
 */

import { classCases } from './class-cases.js';
import type { HostileErrorMessage } from './hostile-error-messages.js';

const credential = classCases('credential', 'user and password in an Oracle connect string');

export const ORACLE_CREDENTIAL_MESSAGES: readonly HostileErrorMessage[] = [
  credential(
    'thin URL with host:port/service',
    'java.sql.SQLException: Listener refused the connection with the following error: ORA-12514, url=jdbc:oracle:thin:hr_batch/Wint3r#2024@db-host:1521/ORCLPDB1',
    ['hr_batch', 'Wint3r#2024'],
  ),
  credential(
    'thin URL with //host',
    'Cannot create PoolableConnectionFactory (ORA-01017: invalid username/password; logon denied) for jdbc:oracle:thin:billing_app/Q7v!rT2pLx@//ora-prod.acme.corp:1521/BILLING',
    ['billing_app', 'Q7v!rT2pLx', 'ora-prod.acme.corp'],
  ),
  credential(
    'thin URL with host:port:SID',
    'HikariPool-1 - Exception during pool initialization: url jdbc:oracle:thin:scott_ro/Tig3rTig3r@10.20.30.40:1521:ORCL',
    ['scott_ro', 'Tig3rTig3r', '10.20.30.40'],
  ),
  credential(
    'thin URL with a TNS descriptor',
    'Liquibase update failed: jdbc:oracle:thin:lb_owner/Migr8-Secure@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=ora-rac-scan.acme.lan)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=LBPDB)))',
    ['lb_owner', 'Migr8-Secure', 'ora-rac-scan.acme.lan'],
  ),
  credential(
    'OCI URL',
    'java.lang.UnsatisfiedLinkError: no ocijdbc21 in java.library.path while opening jdbc:oracle:oci:etl_user/Etl_Pa55word@PRODDB',
    ['etl_user', 'Etl_Pa55word'],
  ),
  credential(
    'thin URL with a quoted password that holds an @',
    'Flyway failed to connect: jdbc:oracle:thin:fw_migrator/"p@ss#W0rd"@//db01.acme.io:1521/APPPDB (ORA-12541: TNS:no listener)',
    ['fw_migrator', 'p@ss#W0rd', 'db01.acme.io'],
  ),
  credential(
    'Spring property in a startup failure',
    'Failed to bind properties under spring.datasource.url to java.lang.String: value jdbc:oracle:thin:orders_svc/Ord3rs!Svc@ora-orders:1521/ORDERS is invalid',
    ['orders_svc', 'Ord3rs!Svc'],
  ),
  credential(
    'SQL*Plus command line',
    'Command failed: sqlplus -S ops_admin/Adm1n_Ops_77@PRODDB @/opt/scripts/purge.sql\nSP2-0306: Invalid option.',
    ['ops_admin', 'Adm1n_Ops_77'],
  ),
  credential(
    'SQL*Plus with an Easy Connect string',
    'exit status 1: sqlplus system/Oracle_2024@//localhost:1521/XEPDB1 as sysdba',
    ['Oracle_2024', 'system/Oracle'],
  ),
  credential(
    'SQL*Plus without a connect identifier',
    'spawn sqlplus reporting/R3port!ng failed: ENOENT (is ORACLE_HOME set?)',
    ['reporting/', 'R3port!ng'],
  ),
  credential(
    'CONNECT inside a script log',
    'SQL> CONNECT app_owner/Own3r-Secret@pdb1\nERROR:\nORA-28000: The account is locked.',
    ['app_owner', 'Own3r-Secret'],
  ),
  credential(
    'conn abbreviation, lower case',
    'script.sql line 3: conn batch_ro/Batch_R0_pw@orclpdb -> ORA-12154: TNS:could not resolve the connect identifier specified',
    ['batch_ro', 'Batch_R0_pw'],
  ),
  credential(
    'Data Pump export',
    'expdp system/Exp0rt!Pw@ORCLPDB1 schemas=HR directory=DATA_PUMP_DIR dumpfile=hr.dmp\nORA-39002: invalid operation',
    ['Exp0rt!Pw', 'system/Exp0rt'],
  ),
  credential(
    'Data Pump import in a cron mail',
    'Cron <oracle@db01> impdp dw_loader/Dw-L0ader-9@DWPDB full=y: ORA-31640: unable to open dump file',
    ['dw_loader', 'Dw-L0ader-9'],
  ),
  credential(
    'SQL*Loader userid parameter',
    'SQL*Loader-500: Unable to open file (orders.dat) for sqlldr userid=ldr_user/Ld3r_Pass@STAGE control=orders.ctl',
    ['ldr_user', 'Ld3r_Pass'],
  ),
  credential(
    'legacy exp userid with no connect identifier',
    'EXP-00056: ORACLE error 1017 encountered running exp USERID=archiver/Arch1ve_Me file=full.dmp',
    ['archiver/', 'Arch1ve_Me'],
  ),
  credential(
    'RMAN target',
    'RMAN-00571: ===========================================================\nrman target sys/Rman_Sys_42@PRODCDB catalog rco/Cat4log_Pw@RCAT',
    ['Rman_Sys_42', 'rco/', 'Cat4log_Pw'],
  ),
  credential(
    'DGMGRL connect',
    'DGM-17016: failed to retrieve status for database "standby" (dgmgrl sys/DgBroker#1@primary_db "show configuration")',
    ['DgBroker#1', 'sys/DgBroker'],
  ),
  credential(
    'SQLcl command line',
    'sql -S ci_runner/C1_Runner_pw@db.acme.io:1521/FREEPDB1 @smoke.sql: exit 1',
    ['ci_runner', 'C1_Runner_pw'],
  ),
  credential(
    'python-oracledb connect string',
    "oracledb.exceptions.DatabaseError: DPY-4011: the database or network closed the connection (dsn='analytics/An4lyt1cs!@ora-dw.acme.corp:1521/DWPDB')",
    ['analytics/', 'An4lyt1cs!', 'ora-dw.acme.corp'],
  ),
  credential(
    'cx_Oracle connect string in a Django error',
    'django.db.utils.DatabaseError: ORA-12170: TNS:Connect timeout occurred (NAME="crm_web/Crm-W3b-Pass@crm-db.acme.internal/CRMPDB")',
    ['crm_web', 'Crm-W3b-Pass', 'crm-db.acme.internal'],
  ),
  credential(
    'Informatica-style connect string after a colon',
    'Connection test failed for target ORA_DW: dw_writer/Wr1ter@dw-scan.acme.lan:1521/DW (ORA-01017)',
    ['dw_writer', 'Wr1ter@', 'dw-scan.acme.lan'],
  ),
];
