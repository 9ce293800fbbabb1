//! The slash commands Rookery registers stay inside Discord's limits, checked without
//! connecting: names 1-32 lower-case characters, descriptions 1-100 characters, at most 25
//! options per command and 25 choices per option, and at most 100 commands.

fn valid_name(name: &str) -> bool {
    (1..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

#[test]
fn slash_commands_satisfy_discords_limits() {
    let commands = bot::discord::commands();
    assert!(!commands.is_empty() && commands.len() <= 100);
    let mut names = std::collections::HashSet::new();
    for command in &commands {
        let name = &command.name;
        assert!(valid_name(name), "command name {name:?}");
        assert!(names.insert(name.clone()), "duplicate command {name}");
        let description = command.description.as_deref().unwrap_or("");
        assert!(
            (1..=100).contains(&description.chars().count()),
            "/{name} description {description:?}"
        );
        assert!(
            command.parameters.len() <= 25,
            "/{name} has too many options"
        );
        let mut optional_seen = false;
        for p in &command.parameters {
            assert!(valid_name(&p.name), "/{name} option {:?}", p.name);
            let d = p.description.as_deref().unwrap_or("");
            assert!(
                (1..=100).contains(&d.chars().count()),
                "/{name} {} description {d:?}",
                p.name
            );
            assert!(
                p.choices.len() <= 25,
                "/{name} {} has too many choices",
                p.name
            );
            for c in &p.choices {
                assert!((1..=100).contains(&c.name.chars().count()));
            }
            // Discord wants required options before optional ones.
            if p.required {
                assert!(
                    !optional_seen,
                    "/{name}: required {} after an optional option",
                    p.name
                );
            } else {
                optional_seen = true;
            }
        }
    }
    // Every command the console knows is registered on Discord too, and no other.
    let console: std::collections::HashSet<String> = bot::commands::COMMANDS
        .iter()
        .map(|c| c.0.to_string())
        .collect();
    assert_eq!(names, console);
}
