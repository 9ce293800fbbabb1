//! No secret reaches anyone but its owner before the game ends: over random playouts of each
//! game with hidden information, every public event, the spectator's view, the other seats'
//! views and panels, and the errors the other seats get are searched for the secret's text.

use engine::game::{Event, Options};
use engine::registry;
use engine::view::{View, Viewer};
use engine::Seat;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Everything a view shows as text.
fn view_text(view: &View) -> String {
    let mut t = format!("{} {:?}", view.status, view.players);
    if let Some(panel) = &view.panel {
        t.push_str(&panel.to_text());
    }
    for row in &view.cards {
        t.push_str(&row.to_text());
    }
    t
}

fn masquerade_playout(seed: u64) -> Result<(), TestCaseError> {
    let game = registry::variant("masquerade").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.setup(&Options::new(), 2, seed).unwrap();
    // Two different secret assignments, one per player.
    let mut pieces = ['K', 'Q', 'R', 'B', 'N'];
    let mut secrets = Vec::new();
    loop {
        pieces.shuffle(&mut rng);
        let text: String = ['K', 'Q', 'R', 'B', 'N']
            .iter()
            .zip(pieces)
            .map(|(p, c)| format!("{p}{c}"))
            .collect::<Vec<_>>()
            .join(" ");
        if !secrets.contains(&text) {
            secrets.push(text);
        }
        if secrets.len() == 2 {
            break;
        }
    }
    let mut public = String::new();
    let mut seen_by: [String; 2] = Default::default();
    for (i, secret) in secrets.iter().enumerate() {
        let seat = Seat(i as u8);
        let (_, events) = game.play(&mut state, seat, secret).unwrap();
        for e in events {
            match e {
                Event::Public(t) => public.push_str(&t),
                Event::Private { seat, text } => seen_by[seat.index()].push_str(&text),
                Event::GameOver(_) => {}
            }
        }
    }
    for _ in 0..rng.gen_range(1..120) {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        let seat = game.prompts(&state).unwrap()[0].seat;
        let other = Seat(1 - seat.0);
        // The waiting player pokes at the game: their errors must not reveal anything.
        for probe in ["Nf3", "Qxd8", "e4", &secrets[seat.index()].clone()] {
            if let Err(e) = game.play(&mut state, other, probe) {
                seen_by[other.index()].push_str(&e.to_string());
            }
        }
        let texts = game.legal_texts(&state, seat).unwrap();
        let choice = texts[rng.gen_range(0..texts.len())].clone();
        for e in game.play(&mut state, seat, &choice).unwrap().1 {
            match e {
                Event::Public(t) => public.push_str(&t),
                Event::Private { seat, text } => seen_by[seat.index()].push_str(&text),
                Event::GameOver(_) => {}
            }
        }
        let spectator = game.view(&state, Viewer::Spectator).unwrap();
        prop_assert!(spectator.panel.is_none());
        public.push_str(&view_text(&spectator));
        for s in 0..2u8 {
            seen_by[s as usize].push_str(&view_text(
                &game.view(&state, Viewer::Seat(Seat(s))).unwrap(),
            ));
        }
    }
    // secrets[0] was White's choice for Black's pieces: only White may see it; and so on.
    for (owner, secret) in secrets.iter().enumerate() {
        prop_assert!(
            !public.contains(secret.as_str()),
            "public text shows {secret}"
        );
        prop_assert!(
            !seen_by[1 - owner].contains(secret.as_str()),
            "the other player saw {secret}"
        );
        prop_assert!(
            seen_by[owner].contains(secret.as_str()),
            "the owner's panel shows their own choice"
        );
    }
    // Once the game is over, the history tells it all.
    if game.outcome(&state).unwrap().is_some() {
        let history = game.secret_history(&state).unwrap().join(" ");
        for secret in &secrets {
            prop_assert!(history.contains(secret.as_str()));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn masquerade_keeps_each_assignment_from_everyone_but_its_maker(seed in any::<u64>()) {
        masquerade_playout(seed)?;
    }
}

/// Over a random Synchronous game: while one choice is sealed and the other not yet, nothing
/// the other player or a spectator can see differs from before the sealing, and the sealed text
/// appears only in its writer's own panel.
fn synchronous_playout(seed: u64) -> Result<(), TestCaseError> {
    let game = registry::variant("synchronous").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.setup(&Options::new(), 2, seed).unwrap();
    for _ in 0..rng.gen_range(1..60) {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        let prompts = game.prompts(&state).unwrap();
        let first = prompts[0].seat;
        let texts = game.legal_texts(&state, first).unwrap();
        let choice = texts[rng.gen_range(0..texts.len())].clone();
        let sealed = prompts.len() == 2;
        let spectator_before = game.view(&state, Viewer::Spectator).unwrap();
        let (_, events) = game.play(&mut state, first, &choice).unwrap();
        if sealed {
            let other = Seat(1 - first.0);
            prop_assert_eq!(
                events,
                vec![Event::Public(format!(
                    "{} has written down a choice.",
                    first.colour_name()
                ))]
            );
            let spectator = game.view(&state, Viewer::Spectator).unwrap();
            prop_assert_eq!(&spectator.figures, &spectator_before.figures);
            prop_assert!(spectator.panel.is_none());
            let written = format!("wrote down {choice};");
            let theirs = game.view(&state, Viewer::Seat(other)).unwrap();
            let hidden = theirs.panel.is_none_or(|p| !p.to_text().contains(&written));
            prop_assert!(hidden, "the other player sees the sealed choice");
            let mine = game
                .view(&state, Viewer::Seat(first))
                .unwrap()
                .panel
                .unwrap();
            let shown = mine.to_text().contains(&written);
            prop_assert!(shown, "the writer sees their own choice");
            // The other side can still choose anything it could before.
            let answers = game.legal_texts(&state, other).unwrap();
            let answer = answers[rng.gen_range(0..answers.len())].clone();
            game.play(&mut state, other, &answer).unwrap();
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn synchronous_keeps_a_sealed_move_hidden_until_both_are_in(seed in any::<u64>()) {
        synchronous_playout(seed)?;
    }
}

/// Over a random Zombie game: a burial's square never reaches the public or the opponent while
/// it stays buried; the burier's own panel shows it.
fn zombie_playout(seed: u64) -> Result<(), TestCaseError> {
    let game = registry::variant("zombie").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.setup(&Options::new(), 2, seed).unwrap();
    for _ in 0..rng.gen_range(1..150) {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        let prompt = game.prompts(&state).unwrap()[0].clone();
        let seat = prompt.seat;
        let other = Seat(1 - seat.0);
        let texts = game.legal_texts(&state, seat).unwrap();
        let choice = texts[rng.gen_range(0..texts.len())].clone();
        let spectator_before = game.view(&state, Viewer::Spectator).unwrap();
        let other_before = game.view(&state, Viewer::Seat(other)).unwrap();
        let (_, events) = game.play(&mut state, seat, &choice).unwrap();
        if prompt.kind == engine::game::PromptKind::Secret {
            // A burial: what everyone else sees is exactly as before, but for one public line.
            let publics: Vec<&Event> = events
                .iter()
                .filter(|e| matches!(e, Event::Public(_)))
                .collect();
            prop_assert_eq!(publics.len(), 1);
            if let Event::Public(text) = publics[0] {
                // The burial's own announcement names no square (what follows it, such as an
                // unmoved zombie crumbling at the end of the turn, is public anyway).
                let announcement = text.split(". ").next().unwrap_or_default();
                let expected_start = format!("{} has buried the ", seat.colour_name());
                prop_assert!(announcement.starts_with(&expected_start), "{}", text);
                prop_assert!(!announcement.contains(&choice), "{} shows {}", text, choice);
            }
            let turn_ended = events
                .iter()
                .any(|e| matches!(e, Event::Public(t) if t.contains("crumbles")));
            let spectator = game.view(&state, Viewer::Spectator).unwrap();
            if !turn_ended {
                prop_assert_eq!(
                    &spectator.figures,
                    &spectator_before.figures,
                    "a burial moves nothing"
                );
            }
            prop_assert!(spectator.panel.is_none());
            let theirs = game.view(&state, Viewer::Seat(other)).unwrap();
            prop_assert_eq!(
                &theirs.panel,
                &other_before.panel,
                "the opponent's grid does not change"
            );
            let mine = game
                .view(&state, Viewer::Seat(seat))
                .unwrap()
                .panel
                .unwrap();
            prop_assert!(mine
                .rows
                .iter()
                .any(|(_, cells)| cells.iter().any(|c| !c.is_empty())));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn zombie_burials_stay_with_the_burier(seed in any::<u64>()) {
        zombie_playout(seed)?;
    }
}

/// Over a random Two Move game: a chosen pair is shown face down to the other player and to
/// spectators (in the picture's cards and in every text they get) until both have chosen, and
/// face up to its owner; the announcement names no card.
fn two_move_playout(seed: u64) -> Result<(), TestCaseError> {
    let game = registry::variant("two-move").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.setup(&Options::new(), 2, seed).unwrap();
    for _ in 0..rng.gen_range(1..120) {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        let prompts = game.prompts(&state).unwrap();
        let seat = prompts[rng.gen_range(0..prompts.len())].seat;
        let texts = game.legal_texts(&state, seat).unwrap();
        let choice = texts.choose(&mut rng).unwrap().clone();
        let sealing = prompts.len() == 2;
        let (_, events) = game.play(&mut state, seat, &choice).unwrap();
        if !sealing {
            continue;
        }
        let other = Seat(1 - seat.0);
        prop_assert_eq!(
            events,
            vec![Event::Public(format!(
                "{} has chosen two cards.",
                seat.colour_name()
            ))]
        );
        let chosen_row = format!("{} has chosen", seat.colour_name());
        for viewer in [Viewer::Spectator, Viewer::Seat(other)] {
            let view = game.view(&state, viewer).unwrap();
            let row = view.cards.iter().find(|r| r.title == chosen_row);
            prop_assert!(row.is_some_and(|r| r.cards.iter().all(|c| c.is_none())));
            prop_assert!(
                !view_text(&view).contains(&choice),
                "{:?} sees {}",
                viewer,
                choice
            );
            // Whatever the other player tries, the refusal does not give the choice away.
            if viewer == Viewer::Seat(other) {
                for probe in [choice.as_str(), "K K", "p q"] {
                    if let Err(e) = game.play(&mut state.clone(), other, probe) {
                        let told = e.to_string().contains(&format!("chose {}", choice));
                        prop_assert!(!told, "the refusal names the other's cards");
                    }
                }
            }
        }
        let mine = game.view(&state, Viewer::Seat(seat)).unwrap();
        let row = mine.cards.iter().find(|r| r.title == chosen_row).unwrap();
        prop_assert!(
            row.cards.iter().all(|c| c.is_some()),
            "the owner sees his cards"
        );
        prop_assert!(mine.panel.unwrap().to_text().contains(&choice));
    }
    Ok(())
}

fn telepathic_playout(seed: u64) -> Result<(), TestCaseError> {
    let game = registry::variant("telepathic").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.setup(&Options::new(), 4, seed).unwrap();
    for _ in 0..rng.gen_range(1..160) {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        let prompt = game.prompts(&state).unwrap()[0].clone();
        let seat = prompt.seat;
        let texts = game.legal_texts(&state, seat).unwrap();
        let choice = texts.choose(&mut rng).unwrap().clone();
        let (_, events) = game.play(&mut state, seat, &choice).unwrap();
        // Every hand is seen only by the player holding it.
        for viewer in (0..4u8)
            .map(|s| Viewer::Seat(Seat(s)))
            .chain([Viewer::Spectator])
        {
            let view = game.view(&state, viewer).unwrap();
            for row in view.cards.iter().filter(|r| r.title.contains("hand")) {
                // The hand is the team's predictor's.
                let holder = view.table.iter().any(|line| {
                    Viewer::Seat(line.player) == viewer
                        && row.title.starts_with(&line.army.colour_name())
                        && line.status.as_deref() == Some("predicts")
                });
                prop_assert!(
                    row.cards.iter().all(|c| c.is_some() == holder),
                    "{:?} sees {}",
                    viewer,
                    row.to_text()
                );
            }
        }
        if prompt.kind != engine::game::PromptKind::Secret {
            continue;
        }
        // A prediction lies face down: only the predictor sees its face.
        let public = Event::public_texts(&events).join(" ");
        prop_assert!(public.contains("plays a prediction card face down"));
        prop_assert!(!public.contains("predicted"));
        let team = if seat.0.is_multiple_of(2) {
            "White"
        } else {
            "Black"
        };
        let table = format!("{team} on the table");
        for viewer in (0..4u8)
            .map(|s| Viewer::Seat(Seat(s)))
            .chain([Viewer::Spectator])
        {
            let view = game.view(&state, viewer).unwrap();
            let row = view.cards.iter().find(|r| r.title == table).unwrap();
            let face_down_seen = row.cards.last().unwrap().is_some();
            prop_assert_eq!(face_down_seen, viewer == Viewer::Seat(seat), "{:?}", viewer);
        }
        // The mover's refusals do not give the card away.
        let mover = game.prompts(&state).unwrap()[0].seat;
        for probe in ["Ke2", "Qxd8", "remove a2", "C"] {
            if let Err(e) = game.play(&mut state.clone(), mover, probe) {
                prop_assert!(!e.to_string().contains("predict"), "{}", e);
            }
        }
    }
    Ok(())
}

fn cooperative_playout(seed: u64) -> Result<(), TestCaseError> {
    let game = registry::variant("cooperative").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.setup(&Options::new(), 2, seed).unwrap();
    for _ in 0..rng.gen_range(1..200) {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        let seat = game.prompts(&state).unwrap()[0].seat;
        let texts = game.legal_texts(&state, seat).unwrap();
        let choice = texts.choose(&mut rng).unwrap().clone();
        game.play(&mut state, seat, &choice).unwrap();
        // A hand is backs to the partner and to spectators; cards out of the game to all.
        for viewer in [
            Viewer::Seat(Seat::WHITE),
            Viewer::Seat(Seat::BLACK),
            Viewer::Spectator,
        ] {
            let view = game.view(&state, viewer).unwrap();
            for row in &view.cards {
                let own = match viewer {
                    Viewer::Seat(s) => row.title == format!("{} hand", s.colour_name()),
                    Viewer::Spectator => false,
                };
                if row.title.ends_with(" hand") || row.title == "Out of the game" {
                    prop_assert!(
                        row.cards.iter().all(|c| c.is_some() == own),
                        "{:?} sees {}",
                        viewer,
                        row.to_text()
                    );
                }
            }
        }
    }
    Ok(())
}

fn golf_playout(seed: u64) -> Result<(), TestCaseError> {
    let game = registry::variant("golf").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players = rng.gen_range(2..=5u8);
    let mut state = game.setup(&Options::new(), players as usize, seed).unwrap();
    let mut counts = std::collections::HashMap::new();
    for _ in 0..rng.gen_range(1..150) {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        let prompts = game.prompts(&state).unwrap();
        let counting =
            prompts.len() > 1 || prompts[0].kind == engine::game::PromptKind::Secret && players > 1;
        let seat = prompts[rng.gen_range(0..prompts.len())].seat;
        let texts = game.legal_texts(&state, seat).unwrap();
        let choice = texts.choose(&mut rng).unwrap().clone();
        let (_, events) = game.play(&mut state, seat, &choice).unwrap();
        if counting {
            counts.insert(seat, choice.clone());
        }
        let still_counting = game
            .prompts(&state)
            .unwrap()
            .iter()
            .any(|p| p.kind == engine::game::PromptKind::Secret);
        if !counting || !still_counting {
            continue;
        }
        // A count stays secret until every count is in.
        let public = Event::public_texts(&events).join(" ");
        prop_assert_eq!(
            public,
            format!("Player {} has submitted a count.", seat.0 + 1)
        );
        for other in (0..players).map(Seat).filter(|s| *s != seat) {
            for viewer in [Viewer::Seat(other), Viewer::Spectator] {
                let view = game.view(&state, viewer).unwrap();
                // A viewer sees his own count only.
                let own = match viewer {
                    Viewer::Seat(s)
                        if game.prompts(&state).unwrap().iter().all(|p| p.seat != s) =>
                    {
                        counts.get(&s).cloned()
                    }
                    _ => None,
                };
                let shown = view
                    .status
                    .split("Your count: ")
                    .nth(1)
                    .map(|rest| rest.trim_end_matches('.').to_string());
                prop_assert_eq!(shown, own.filter(|c| c != "impossible"), "{}", view.status);
                prop_assert!(!view_text(&view).contains("Counts:"));
            }
            for probe in ["give up", "99", "deal 3"] {
                if let Err(e) = game.play(&mut state.clone(), other, probe) {
                    let e = e.to_string();
                    prop_assert!(!e.contains("Counts:") && !e.contains("counted"), "{}", e);
                }
            }
        }
    }
    Ok(())
}

fn tar_pit_playout(seed: u64) -> Result<(), TestCaseError> {
    let game = registry::variant("tar-pit").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.setup(&Options::new(), 2, seed).unwrap();
    for _ in 0..rng.gen_range(1..120) {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        let seat = game.prompts(&state).unwrap()[0].seat;
        let texts = game.legal_texts(&state, seat).unwrap();
        let choice = texts.choose(&mut rng).unwrap().clone();
        let (_, events) = game.play(&mut state, seat, &choice).unwrap();
        for e in &events {
            if let Event::Private { seat: to, text } = e {
                prop_assert!(false, "a private message to {:?}: {}", to, text);
            }
        }
        // Each hand is backs to the other player and to spectators.
        for viewer in [
            Viewer::Seat(Seat::WHITE),
            Viewer::Seat(Seat::BLACK),
            Viewer::Spectator,
        ] {
            let view = game.view(&state, viewer).unwrap();
            for row in view.cards.iter().filter(|r| r.title.ends_with(" hand")) {
                let own =
                    matches!(viewer, Viewer::Seat(s) if row.title.starts_with(&s.colour_name()));
                prop_assert!(
                    row.cards.iter().all(|c| c.is_some() == own),
                    "{:?} sees {}",
                    viewer,
                    row.to_text()
                );
            }
        }
        // The waiting player's refusals do not give the other's hand away.
        let Some(next) = game.prompts(&state).unwrap().first().map(|p| p.seat) else {
            break;
        };
        let waiting = Seat(1 - next.0);
        if let Err(e) = game.play(&mut state.clone(), waiting, "N e4") {
            prop_assert!(!e.to_string().contains("hand:"), "{}", e);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn tar_pit_shows_a_hand_only_to_its_holder(seed in any::<u64>()) {
        tar_pit_playout(seed)?;
    }

    #[test]
    fn golf_keeps_each_count_secret_until_all_are_in(seed in any::<u64>()) {
        golf_playout(seed)?;
    }

    #[test]
    fn cooperative_shows_a_hand_only_to_its_holder(seed in any::<u64>()) {
        cooperative_playout(seed)?;
    }

    #[test]
    fn telepathic_shows_a_prediction_and_a_hand_to_its_holder_only(seed in any::<u64>()) {
        telepathic_playout(seed)?;
    }

    #[test]
    fn two_move_keeps_a_chosen_pair_face_down_until_both_have_chosen(seed in any::<u64>()) {
        two_move_playout(seed)?;
    }
}
