//! Discord's own published contract for its REST API, held against every exchange the fake
//! Discord has with the bot.
//!
//! Discord publishes its HTTP API as an OpenAPI 3.1 document (the `discord/discord-api-spec`
//! repository, MIT licence); a copy is in `tests/data/discord/` with its licence and where and
//! when it was taken. For each request the bot sends, the method and path must be one of the
//! document's operations and the JSON body (or a multipart body's `payload_json`) must validate
//! against the operation's request schema; for each answer the fake gives, the status must be one
//! the operation lists and the body must validate against that status's response schema. The
//! schemas are JSON Schema 2020-12, checked by the `jsonschema` crate against the document as one
//! resource, so every `$ref` inside it resolves as Discord wrote it.
//!
//! Known, documented allowances, and nothing else:
//! - serenity sends a new attachment's `id` as the number 0 where the document says a string
//!   (a snowflake); such ids are read as the string "0" before the request is checked;
//! - the server errors a test injects on purpose (500, or a request left hanging) are Discord
//!   failing, which the document does not describe; their status is not checked.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::{Draft, Registry, Validator};
use serde_json::Value;

/// Where the document is registered, so that its own `$ref`s (`#/components/...`) resolve
/// inside it.
const BASE: &str = "https://discord.com/api/v10/openapi.json";

/// One operation of the document: its method and path template, split in segments.
struct Operation {
    method: String,
    template: String,
    /// Literal segments, or `None` for a parameter (`{channel_id}`).
    segments: Vec<Option<String>>,
}

/// The document, its operations and the validators compiled so far.
pub struct Contract {
    document: &'static Value,
    registry: &'static Registry<'static>,
    operations: Vec<Operation>,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

/// What one exchange broke, in words naming the route and the field.
pub type Mismatches = Vec<String>;

/// The contract, loaded once per test process.
pub fn contract() -> &'static Contract {
    static CONTRACT: OnceLock<Contract> = OnceLock::new();
    CONTRACT.get_or_init(Contract::load)
}

/// A JSON pointer's escaping of one key (`/` and `~`).
fn escaped(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl Contract {
    fn load() -> Contract {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/discord/openapi.json");
        let text = std::fs::read_to_string(path).expect("tests/data/discord/openapi.json");
        let document: &'static Value = Box::leak(Box::new(
            serde_json::from_str(&text).expect("Discord's OpenAPI JSON"),
        ));
        let registry: &'static Registry<'static> = Box::leak(Box::new(
            Registry::new()
                .draft(Draft::Draft202012)
                .add(BASE, document)
                .and_then(|builder| builder.prepare())
                .expect("Discord's OpenAPI document as a schema resource"),
        ));
        let mut operations = Vec::new();
        for (template, item) in document["paths"].as_object().into_iter().flatten() {
            for method in ["get", "put", "post", "patch", "delete"] {
                if item.get(method).is_some() {
                    operations.push(Operation {
                        method: method.to_uppercase(),
                        template: template.clone(),
                        segments: template
                            .trim_matches('/')
                            .split('/')
                            .map(|s| (!s.starts_with('{')).then(|| s.to_string()))
                            .collect(),
                    });
                }
            }
        }
        Contract {
            document,
            registry,
            operations,
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// The operation a request names: the template whose segments match, literal segments
    /// preferred over parameters (`/users/@me/channels` before `/users/{user_id}/...`).
    fn operation(&self, method: &str, path: &str) -> Option<&Operation> {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        self.operations
            .iter()
            .filter(|o| o.method == method && o.segments.len() == parts.len())
            .filter(|o| {
                o.segments
                    .iter()
                    .zip(&parts)
                    .all(|(s, p)| s.as_deref().is_none_or(|s| s == *p))
            })
            .max_by_key(|o| o.segments.iter().filter(|s| s.is_some()).count())
    }

    /// The operation's path template, as `/channels/{channel_id}/messages`.
    pub fn template(&self, method: &str, path: &str) -> Option<&str> {
        self.operation(method, path).map(|o| o.template.as_str())
    }

    fn operation_json(&self, o: &Operation) -> (&Value, String) {
        let pointer = format!(
            "/paths/{}/{}",
            escaped(&o.template),
            o.method.to_lowercase()
        );
        (
            self.document.pointer(&pointer).unwrap_or(&Value::Null),
            pointer,
        )
    }

    /// The validator of the schema at `pointer` in the document, compiled once.
    fn validator(&self, pointer: &str) -> Arc<Validator> {
        let mut validators = self.validators.lock().unwrap();
        validators
            .entry(pointer.to_string())
            .or_insert_with(|| {
                // A pointer in a URI fragment is percent-encoded (the templates' braces).
                let fragment = pointer.replace('{', "%7B").replace('}', "%7D");
                let reference = serde_json::json!({ "$ref": format!("{BASE}#{fragment}") });
                Arc::new(
                    jsonschema::options()
                        .with_draft(Draft::Draft202012)
                        .with_registry(self.registry)
                        .should_validate_formats(true)
                        .build(&reference)
                        .unwrap_or_else(|e| panic!("compiling {pointer}: {e}")),
                )
            })
            .clone()
    }

    fn validate(&self, pointer: &str, instance: &Value, what: &str) -> Mismatches {
        let validator = self.validator(pointer);
        validator
            .iter_errors(instance)
            .map(|e| {
                let mut said = e.to_string();
                if said.len() > 300 {
                    let mut cut = 300;
                    while !said.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    said.truncate(cut);
                    said.push_str("...");
                }
                format!("{what}: at `{}`: {said}", e.instance_path())
            })
            .collect()
    }

    /// Checks a request: the operation exists and its body fits the request schema. `json` is
    /// the JSON body, or a multipart body's `payload_json`.
    pub fn check_request(
        &self,
        method: &str,
        path: &str,
        multipart: bool,
        json: Option<&Value>,
    ) -> Mismatches {
        let Some(o) = self.operation(method, path) else {
            return vec![format!(
                "{method} {path}: no such operation in Discord's OpenAPI document"
            )];
        };
        let what = format!("{method} {} request", o.template);
        let (operation, pointer) = self.operation_json(o);
        let Some(content) = operation["requestBody"]["content"].as_object() else {
            return match json {
                Some(_) => vec![format!("{what}: a body where the operation takes none")],
                None => Vec::new(),
            };
        };
        let Some(body) = json else {
            return if operation["requestBody"]["required"] == Value::Bool(true) {
                vec![format!("{what}: no body where one is required")]
            } else {
                Vec::new()
            };
        };
        let media = if multipart {
            "multipart/form-data"
        } else {
            "application/json"
        };
        if !content.contains_key(media) {
            return vec![format!("{what}: sent as {media}, which it does not take")];
        }
        let mut body = body.clone();
        allow_numeric_attachment_ids(&mut body);
        let schema = format!("{pointer}/requestBody/content/{}/schema", escaped(media));
        self.validate(&schema, &body, &what)
    }

    /// Checks an answer: its status is one the operation lists (exactly, or as `4XX`), and its
    /// JSON body fits that status's schema.
    pub fn check_response(
        &self,
        method: &str,
        path: &str,
        status: u16,
        json: Option<&Value>,
    ) -> Mismatches {
        let Some(o) = self.operation(method, path) else {
            // The request was already refused for this.
            return Vec::new();
        };
        let what = format!("{method} {} answer {status}", o.template);
        let (operation, pointer) = self.operation_json(o);
        let responses = &operation["responses"];
        let exact = status.to_string();
        let class = format!("{}XX", status / 100);
        let key = if responses.get(&exact).is_some() {
            exact
        } else if responses.get(&class).is_some() {
            class
        } else {
            return vec![format!("{what}: a status the operation does not list")];
        };
        match (
            responses[&key]["content"]["application/json"].get("schema"),
            json,
        ) {
            (Some(_), Some(body)) => {
                let schema = format!(
                    "{pointer}/responses/{key}/content/{}/schema",
                    escaped("application/json")
                );
                self.validate(&schema, body, &what)
            }
            (Some(_), None) if status < 400 => {
                vec![format!(
                    "{what}: no JSON body where the operation gives one"
                )]
            }
            (None, Some(_)) if status < 400 => {
                vec![format!("{what}: a body where the operation gives none")]
            }
            _ => Vec::new(),
        }
    }
}

/// The one allowance in requests: serenity numbers a new attachment `0` where Discord's
/// document says a snowflake string.
fn allow_numeric_attachment_ids(body: &mut Value) {
    for attachment in body
        .get_mut("attachments")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        if let Some(id) = attachment.get("id").and_then(Value::as_u64) {
            attachment["id"] = Value::String(id.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn routes_prefer_literal_segments() {
        let c = contract();
        assert_eq!(
            c.template("POST", "/users/@me/channels"),
            Some("/users/@me/channels")
        );
        assert_eq!(
            c.template("POST", "/channels/12/messages"),
            Some("/channels/{channel_id}/messages")
        );
        assert_eq!(c.template("POST", "/no/such/route"), None);
    }

    #[test]
    fn a_wrong_field_is_named_with_its_route() {
        let c = contract();
        let found = c.check_request(
            "POST",
            "/channels/12/messages",
            false,
            Some(&json!({"content": 5})),
        );
        assert!(
            found
                .iter()
                .any(|m| m.contains("/channels/{channel_id}/messages") && m.contains("/content")),
            "{found:?}"
        );
        assert!(c
            .check_request(
                "POST",
                "/channels/12/messages",
                false,
                Some(&json!({"content": "hello"}))
            )
            .is_empty());
    }

    #[test]
    fn statuses_are_those_listed() {
        let c = contract();
        // Discord answers a new thread 201, not 200.
        let thread = c.check_response("POST", "/channels/12/threads", 200, Some(&json!({})));
        assert!(
            thread.iter().any(|m| m.contains("does not list")),
            "{thread:?}"
        );
        assert!(c
            .check_response(
                "POST",
                "/channels/12/messages",
                404,
                Some(&json!({"code": 10003}))
            )
            .is_empty());
    }
}
