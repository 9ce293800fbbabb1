//! The SQLite migrations (`migrations/`) and the PostgreSQL ones (`migrations/postgres/`) give
//! the same schema: the same tables, columns in the same order with the same types (BIGINT for
//! INTEGER, DOUBLE PRECISION for REAL, BYTEA for BLOB), NOT NULL, defaults and auto-numbered
//! keys, the same primary keys, unique constraints, foreign keys and indexes. Each side is read
//! from the database itself after its migrations ran, not from the SQL files, so an ALTER in
//! one migration is seen as the other backend must see it. A difference names its table and
//! column.
//!
//! PostgreSQL is started by `rookery_tests::postgres` (or taken from `ROOKERY_TEST_POSTGRES`);
//! without it the PostgreSQL half is skipped, unless `ROOKERY_REQUIRE_POSTGRES` is set.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use rookery_tests::TempDir;
use sqlx::postgres::PgPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{PgPool, Row, SqlitePool};

/// One column as both backends can state it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Column {
    name: String,
    /// INTEGER, REAL, TEXT or BLOB (PostgreSQL's types mapped onto SQLite's).
    kind: String,
    not_null: bool,
    /// The default's expression, normalised (`'[]'`, `0`); `None` for no default.
    default: Option<String>,
    /// Numbered by the database: SQLite's `INTEGER PRIMARY KEY AUTOINCREMENT`, PostgreSQL's
    /// identity column.
    auto: bool,
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if self.not_null {
            write!(f, " NOT NULL")?;
        }
        if let Some(default) = &self.default {
            write!(f, " DEFAULT {default}")?;
        }
        if self.auto {
            write!(f, " (auto-numbered)")?;
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ForeignKey {
    columns: Vec<String>,
    table: String,
    to: Vec<String>,
    on_update: String,
    on_delete: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Table {
    columns: Vec<Column>,
    primary_key: Vec<String>,
    /// UNIQUE constraints (not indexes made with CREATE UNIQUE INDEX: those are in `indexes`).
    uniques: BTreeSet<Vec<String>>,
    foreign_keys: BTreeSet<ForeignKey>,
    /// Indexes made with CREATE INDEX, by name: (unique, columns).
    indexes: BTreeMap<String, (bool, Vec<String>)>,
}

type Schema = BTreeMap<String, Table>;

/// Tables that belong to the database or to sqlx, not to Rookery.
fn ours(table: &str) -> bool {
    !table.starts_with("sqlite_") && table != "_sqlx_migrations"
}

/// PostgreSQL's and SQLite's names of the same type, as SQLite's.
fn normalise_type(ty: &str) -> String {
    let ty = ty.trim().to_ascii_uppercase();
    match ty.as_str() {
        "BIGINT" | "INT8" | "INTEGER" | "INT" | "INT4" | "SMALLINT" | "INT2" => "INTEGER",
        "DOUBLE PRECISION" | "FLOAT8" | "REAL" | "FLOAT4" | "DOUBLE" => "REAL",
        "BYTEA" | "BLOB" => "BLOB",
        "TEXT" | "CHARACTER VARYING" | "VARCHAR" => "TEXT",
        other => other,
    }
    .to_string()
}

/// A default expression without PostgreSQL's casts (`'[]'::text` is `'[]'`) and parentheses.
fn normalise_default(expression: &str) -> String {
    let mut e = expression.trim().to_string();
    loop {
        let before = e.clone();
        // A trailing cast: `'x'::text`, `'-1'::integer`, `0::bigint`, `'x'::character varying`.
        if let Some(at) = e.rfind("::") {
            let ty = &e[at + 2..];
            if ty
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '_')
            {
                e.truncate(at);
            }
        }
        if let Some(inner) = e.strip_prefix('(').and_then(|e| e.strip_suffix(')')) {
            e = inner.trim().to_string();
        }
        if e == before {
            break;
        }
    }
    // A number PostgreSQL quoted to cast it: '-1'::integer.
    if let Some(number) = e
        .strip_prefix('\'')
        .and_then(|e| e.strip_suffix('\''))
        .filter(|n| !n.is_empty() && n.parse::<f64>().is_ok())
    {
        return number.to_string();
    }
    let upper = e.to_ascii_uppercase();
    if upper == "NULL" {
        return upper;
    }
    e
}

async fn sqlite_schema(pool: &SqlitePool) -> Schema {
    let mut schema = Schema::new();
    let tables = sqlx::query(
        "SELECT name, CAST(upper(sql) LIKE '%AUTOINCREMENT%' AS INTEGER) AS auto_numbered \
         FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    for row in tables {
        let name: String = row.get("name");
        if !ours(&name) {
            continue;
        }
        let autoincrement = row.get::<i64, _>("auto_numbered") != 0;
        let mut table = Table::default();

        let columns = sqlx::query(
            "SELECT name, type, CAST(\"notnull\" AS INTEGER) AS not_null, dflt_value, \
             CAST(pk AS INTEGER) AS pk FROM pragma_table_info(?1) ORDER BY cid",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        let mut primary_key: Vec<(i64, String)> = Vec::new();
        let pk_count = columns.iter().filter(|c| c.get::<i64, _>("pk") > 0).count();
        for column in &columns {
            let column_name: String = column.get("name");
            let kind: String = column.get("type");
            let pk: i64 = column.get("pk");
            if pk > 0 {
                primary_key.push((pk, column_name.clone()));
            }
            // A one-column INTEGER PRIMARY KEY is the rowid: never NULL, numbered by SQLite
            // (AUTOINCREMENT: never reusing a number), as an identity column is in PostgreSQL.
            let rowid = pk > 0 && pk_count == 1 && kind.eq_ignore_ascii_case("INTEGER");
            table.columns.push(Column {
                name: column_name,
                kind: normalise_type(&kind),
                not_null: column.get::<i64, _>("not_null") != 0 || pk > 0,
                default: column
                    .get::<Option<String>, _>("dflt_value")
                    .map(|d| normalise_default(&d)),
                auto: rowid && autoincrement,
            });
        }
        primary_key.sort();
        table.primary_key = primary_key.into_iter().map(|(_, c)| c).collect();

        let indexes = sqlx::query(
            "SELECT name, CAST(\"unique\" AS INTEGER) AS is_unique, origin \
             FROM pragma_index_list(?1) ORDER BY name",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        for index in indexes {
            let index_name: String = index.get("name");
            let unique = index.get::<i64, _>("is_unique") != 0;
            let origin: String = index.get("origin");
            let columns: Vec<String> =
                sqlx::query_scalar("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")
                    .bind(&index_name)
                    .fetch_all(pool)
                    .await
                    .unwrap();
            match origin.as_str() {
                // The primary key's index: the key itself is read from pragma_table_info.
                "pk" => {}
                "u" => {
                    table.uniques.insert(columns);
                }
                _ => {
                    table.indexes.insert(index_name, (unique, columns));
                }
            }
        }

        let keys = sqlx::query(
            "SELECT CAST(id AS INTEGER) AS id, \"table\" AS target, \"from\" AS source, \
             \"to\" AS target_column, on_update, on_delete \
             FROM pragma_foreign_key_list(?1) ORDER BY id, seq",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        let mut by_id: BTreeMap<i64, ForeignKey> = BTreeMap::new();
        for key in keys {
            let entry = by_id
                .entry(key.get::<i64, _>("id"))
                .or_insert_with(|| ForeignKey {
                    columns: Vec::new(),
                    table: key.get("target"),
                    to: Vec::new(),
                    on_update: key.get::<String, _>("on_update").to_ascii_uppercase(),
                    on_delete: key.get::<String, _>("on_delete").to_ascii_uppercase(),
                });
            entry.columns.push(key.get("source"));
            // `REFERENCES t` without columns names t's primary key: filled in below.
            entry.to.push(
                key.get::<Option<String>, _>("target_column")
                    .unwrap_or_default(),
            );
        }
        table.foreign_keys = by_id.into_values().collect();
        schema.insert(name, table);
    }

    // Foreign keys naming no column point at the target's primary key.
    let primary_keys: BTreeMap<String, Vec<String>> = schema
        .iter()
        .map(|(name, table)| (name.clone(), table.primary_key.clone()))
        .collect();
    for table in schema.values_mut() {
        table.foreign_keys = std::mem::take(&mut table.foreign_keys)
            .into_iter()
            .map(|mut key| {
                if key.to.iter().all(String::is_empty) {
                    key.to = primary_keys.get(&key.table).cloned().unwrap_or_default();
                }
                key
            })
            .collect();
    }
    schema
}

/// PostgreSQL's `pg_constraint.confupdtype` / `confdeltype` as SQLite names the action.
fn pg_action(code: &str) -> String {
    match code {
        "a" => "NO ACTION",
        "r" => "RESTRICT",
        "c" => "CASCADE",
        "n" => "SET NULL",
        "d" => "SET DEFAULT",
        other => other,
    }
    .to_string()
}

async fn postgres_schema(pool: &PgPool) -> Schema {
    let mut schema = Schema::new();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY 1",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    for name in tables {
        if !ours(&name) {
            continue;
        }
        let mut table = Table::default();

        let columns = sqlx::query(
            "SELECT column_name::text AS name, data_type::text AS kind, \
             (is_nullable = 'NO') AS not_null, column_default::text AS dflt, \
             (is_identity = 'YES') AS identity \
             FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = $1 \
             ORDER BY ordinal_position",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        for column in columns {
            let default: Option<String> = column.get("dflt");
            let identity: bool = column.get("identity");
            // A serial column's default is nextval(...): numbered by the database too.
            let serial = default
                .as_deref()
                .is_some_and(|d| d.starts_with("nextval("));
            table.columns.push(Column {
                name: column.get("name"),
                kind: normalise_type(&column.get::<String, _>("kind")),
                not_null: column.get("not_null"),
                default: default.filter(|_| !serial).map(|d| normalise_default(&d)),
                auto: identity || serial,
            });
        }

        let constraints = sqlx::query(
            "SELECT con.contype::text AS kind, \
               ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord) \
                     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum \
                     ORDER BY k.ord) AS columns, \
               COALESCE(rc.relname::text, '') AS target, \
               ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord) \
                     JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum \
                     ORDER BY k.ord) AS target_columns, \
               con.confupdtype::text AS on_update, con.confdeltype::text AS on_delete \
             FROM pg_constraint con \
             JOIN pg_class t ON t.oid = con.conrelid \
             JOIN pg_namespace n ON n.oid = t.relnamespace \
             LEFT JOIN pg_class rc ON rc.oid = con.confrelid \
             WHERE n.nspname = current_schema() AND t.relname = $1 \
               AND con.contype IN ('p', 'u', 'f') \
             ORDER BY 1, 2",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        for constraint in constraints {
            let kind: String = constraint.get("kind");
            let columns: Vec<String> = constraint.get("columns");
            match kind.as_str() {
                "p" => table.primary_key = columns,
                "u" => {
                    table.uniques.insert(columns);
                }
                _ => {
                    table.foreign_keys.insert(ForeignKey {
                        columns,
                        table: constraint.get("target"),
                        to: constraint.get("target_columns"),
                        on_update: pg_action(&constraint.get::<String, _>("on_update")),
                        on_delete: pg_action(&constraint.get::<String, _>("on_delete")),
                    });
                }
            }
        }

        // Indexes other than those behind the primary key and UNIQUE constraints.
        let indexes = sqlx::query(
            "SELECT i.relname::text AS name, ix.indisunique AS is_unique, \
               ARRAY(SELECT a.attname::text FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord) \
                     JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum \
                     ORDER BY k.ord) AS columns \
             FROM pg_index ix \
             JOIN pg_class i ON i.oid = ix.indexrelid \
             JOIN pg_class t ON t.oid = ix.indrelid \
             JOIN pg_namespace n ON n.oid = t.relnamespace \
             WHERE n.nspname = current_schema() AND t.relname = $1 \
               AND NOT EXISTS (SELECT 1 FROM pg_constraint con \
                               WHERE con.conindid = ix.indexrelid AND con.conrelid = ix.indrelid \
                                 AND con.contype IN ('p', 'u')) \
             ORDER BY 1",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        for index in indexes {
            table.indexes.insert(
                index.get("name"),
                (index.get("is_unique"), index.get("columns")),
            );
        }
        schema.insert(name, table);
    }
    schema
}

/// Every difference between the two schemas, each naming its table (and column).
fn differences(sqlite: &Schema, postgres: &Schema) -> Vec<String> {
    let mut out = Vec::new();
    for name in sqlite
        .keys()
        .chain(postgres.keys())
        .collect::<BTreeSet<_>>()
    {
        let (s, p) = match (sqlite.get(name), postgres.get(name)) {
            (Some(s), Some(p)) => (s, p),
            (Some(_), None) => {
                out.push(format!("table {name}: in SQLite only"));
                continue;
            }
            (None, _) => {
                out.push(format!("table {name}: in PostgreSQL only"));
                continue;
            }
        };
        for i in 0..s.columns.len().max(p.columns.len()) {
            match (s.columns.get(i), p.columns.get(i)) {
                (Some(a), Some(b)) if a.name != b.name => out.push(format!(
                    "table {name}, column {} (position {}): PostgreSQL has column {} there",
                    a.name,
                    i + 1,
                    b.name
                )),
                (Some(a), Some(b)) if a != b => out.push(format!(
                    "table {name}, column {}: SQLite {a}, PostgreSQL {b}",
                    a.name
                )),
                (Some(a), None) => out.push(format!(
                    "table {name}, column {}: in SQLite only ({a})",
                    a.name
                )),
                (None, Some(b)) => out.push(format!(
                    "table {name}, column {}: in PostgreSQL only ({b})",
                    b.name
                )),
                _ => {}
            }
        }
        if s.primary_key != p.primary_key {
            out.push(format!(
                "table {name}, primary key: SQLite ({}), PostgreSQL ({})",
                s.primary_key.join(", "),
                p.primary_key.join(", ")
            ));
        }
        for unique in s.uniques.symmetric_difference(&p.uniques) {
            let side = if s.uniques.contains(unique) {
                "SQLite"
            } else {
                "PostgreSQL"
            };
            out.push(format!(
                "table {name}, UNIQUE ({}): in {side} only",
                unique.join(", ")
            ));
        }
        for key in s.foreign_keys.symmetric_difference(&p.foreign_keys) {
            let side = if s.foreign_keys.contains(key) {
                "SQLite"
            } else {
                "PostgreSQL"
            };
            out.push(format!(
                "table {name}, foreign key ({}) REFERENCES {} ({}) ON UPDATE {} ON DELETE {}: \
                 in {side} only",
                key.columns.join(", "),
                key.table,
                key.to.join(", "),
                key.on_update,
                key.on_delete
            ));
        }
        for index in s
            .indexes
            .keys()
            .chain(p.indexes.keys())
            .collect::<BTreeSet<_>>()
        {
            let show = |(unique, columns): &(bool, Vec<String>)| {
                format!(
                    "{}({})",
                    if *unique { "UNIQUE " } else { "" },
                    columns.join(", ")
                )
            };
            match (s.indexes.get(index), p.indexes.get(index)) {
                (Some(a), Some(b)) if a != b => out.push(format!(
                    "table {name}, index {index}: SQLite {}, PostgreSQL {}",
                    show(a),
                    show(b)
                )),
                (Some(a), None) => out.push(format!(
                    "table {name}, index {index} {}: in SQLite only",
                    show(a)
                )),
                (None, Some(b)) => out.push(format!(
                    "table {name}, index {index} {}: in PostgreSQL only",
                    show(b)
                )),
                _ => {}
            }
        }
    }
    out
}

async fn migrated_sqlite(dir: &TempDir) -> SqlitePool {
    let options = SqliteConnectOptions::new()
        .filename(dir.0.join("schema.db"))
        .create_if_missing(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    sqlx::migrate!("../migrations").run(&pool).await.unwrap();
    pool
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_and_postgres_migrations_give_the_same_schema() {
    let dir = TempDir::new("schema-backends");
    let sqlite = sqlite_schema(&migrated_sqlite(&dir).await).await;
    // The reading of SQLite's schema sees what the migrations made.
    assert!(sqlite.len() >= 9, "SQLite tables: {:?}", sqlite.keys());
    let games = &sqlite["games"];
    assert_eq!(games.primary_key, ["id"]);
    assert!(games.columns[0].auto && games.columns[0].not_null);
    assert_eq!(
        sqlite["seats"].uniques,
        BTreeSet::from([vec!["game_id".to_string(), "user_id".to_string()]])
    );
    assert!(games.indexes.contains_key("games_by_deadline"));

    let Some(server) = rookery_tests::postgres::server() else {
        return;
    };
    let url = server.fresh_database("schema");
    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect(&url)
        .await
        .unwrap();
    sqlx::migrate!("../migrations/postgres")
        .run(&pool)
        .await
        .unwrap();
    let postgres = postgres_schema(&pool).await;
    pool.close().await;

    let differences = differences(&sqlite, &postgres);
    assert!(
        differences.is_empty(),
        "the SQLite and PostgreSQL migrations differ (migrations/ and migrations/postgres/ must \
         change together):\n  {}",
        differences.join("\n  ")
    );
}

/// Both migration folders hold the same versions under the same names (sqlx ignores the
/// `postgres` folder when it reads `migrations/`).
#[test]
fn migrations_pair_up() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let names = |dir: std::path::PathBuf| -> BTreeSet<String> {
        std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|entry| {
                let entry = entry.unwrap();
                let name = entry.file_name().to_string_lossy().to_string();
                (entry.path().is_file() && name.ends_with(".sql")).then_some(name)
            })
            .collect()
    };
    let sqlite = names(root.clone());
    let postgres = names(root.join("postgres"));
    assert!(!sqlite.is_empty());
    assert_eq!(
        sqlite, postgres,
        "migrations/ and migrations/postgres/ must hold the same files"
    );
}

#[test]
fn defaults_normalised() {
    assert_eq!(normalise_default("'[]'::text"), "'[]'");
    assert_eq!(normalise_default("'[]'"), "'[]'");
    assert_eq!(normalise_default("0"), "0");
    assert_eq!(normalise_default("'-1'::integer"), "-1");
    assert_eq!(normalise_default("(-1)"), "-1");
    assert_eq!(normalise_default("''::character varying"), "''");
    assert_eq!(normalise_type("double precision"), "REAL");
    assert_eq!(normalise_type("bigint"), "INTEGER");
    assert_eq!(normalise_type("bytea"), "BLOB");
}
