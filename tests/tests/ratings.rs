//! Ratings through the service: two hundred random rated games (chess, and Doubles Chess as
//! partners and cut-throat) leave a leaderboard equal to ratings computed afresh from the stored
//! results; casual games never change a rating; bad input names what was not found.

use std::collections::BTreeMap;
use std::sync::Arc;

use bot::model::{GameId, Place, Status, User, Who};
use bot::ratings::{self, Rating};
use bot::service::{DrawChoice, ManualClock, Service, ServiceError};
use bot::store::Store;
use engine::game::Outcome;
use engine::registry;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rookery_tests::TempDir;

const SERVER: &str = "console";

fn lobby() -> Place {
    Place::channel(SERVER, "lobby")
}

async fn service(dir: &TempDir) -> Service {
    let store = Store::open(&dir.0.join("rookery.db")).await.unwrap();
    Service::with_seed(store, Arc::new(ManualClock::new(1_800_000_000)), 29)
}

fn person(name: &str) -> User {
    User::new(name, name)
}

/// Opens a game of `variant` with `options`, `players` seated in the order given (the first
/// creates it), and returns its number.
async fn open(s: &Service, variant: &str, options: &str, players: &[&User]) -> GameId {
    let reply = s
        .create(
            players[0],
            &lobby(),
            variant,
            &format!("order=joined {options}"),
            Some(players.len()),
        )
        .await
        .unwrap();
    // "Game 12 created: Chess. ..."
    let id = reply
        .text
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .map(GameId)
        .unwrap_or_else(|| panic!("no game number in {:?}", reply.text));
    for p in &players[1..] {
        s.join(p, &lobby(), Some(id)).await.unwrap();
    }
    id
}

async fn finished(s: &Service, id: GameId) -> bool {
    s.store().game(id).await.unwrap().unwrap().status == Status::Finished
}

/// The player whose turn it is plays a random legal move; returns which player, or `None` if
/// nobody could.
async fn play_one(
    s: &Service,
    id: GameId,
    players: &[&User],
    rng: &mut ChaCha8Rng,
) -> Option<usize> {
    for (i, p) in players.iter().enumerate() {
        if s.moves(p, &lobby(), Some(id)).await.is_err() {
            continue;
        }
        let legal = s.suggestions(p, &lobby(), Some(id), "", 1000).await;
        let text = legal.choose(rng)?.clone();
        s.act(p, &lobby(), Some(id), &text).await.unwrap();
        return Some(i);
    }
    None
}

/// Plays random moves until every player has moved and `extra` more plies are played, or the
/// game ends. Returns whether every player moved.
async fn everyone_moves(
    s: &Service,
    id: GameId,
    players: &[&User],
    extra: usize,
    rng: &mut ChaCha8Rng,
) -> bool {
    let mut moved = vec![false; players.len()];
    let mut more = extra;
    for _ in 0..100 {
        if finished(s, id).await {
            break;
        }
        if moved.iter().all(|m| *m) {
            if more == 0 {
                break;
            }
            more -= 1;
        }
        match play_one(s, id, players, rng).await {
            Some(i) => moved[i] = true,
            None => break,
        }
    }
    moved.iter().all(|m| *m)
}

/// Ends a game: resignations (each for himself until one is left, in cut-throat) or a draw
/// all agree to.
async fn end(s: &Service, id: GameId, players: &[&User], rng: &mut ChaCha8Rng) {
    if finished(s, id).await {
        return;
    }
    if rng.gen_bool(0.2) {
        for (i, p) in players.iter().enumerate() {
            let choice = if i == 0 {
                DrawChoice::OfferOrAccept
            } else {
                DrawChoice::Accept
            };
            // A player already knocked out of a cut-throat game has no say; the others
            // resign below if the draw does not come about.
            let _ = s.draw(p, &lobby(), Some(id), choice).await;
        }
        if finished(s, id).await {
            return;
        }
    }
    let mut left: Vec<&User> = players.to_vec();
    left.shuffle(rng);
    while !finished(s, id).await {
        let resigner = left.pop().expect("someone left to resign");
        // A player already knocked out of a cut-throat game cannot resign again.
        let _ = s.resign(resigner, &lobby(), Some(id)).await;
    }
}

/// Ratings computed afresh, by pool and player: the rating, the games counted, the name.
type Fresh = BTreeMap<(String, String), (Rating, i64, String)>;

/// Rates one stored game afresh from its stored result, as if nothing had been rated before.
async fn rate_afresh(s: &Service, id: GameId, fresh: &mut Fresh) {
    let row = s.store().game(id).await.unwrap().unwrap();
    let seats = s.store().seats_of(id).await.unwrap();
    let outcome: Outcome = serde_json::from_str(row.result.as_deref().unwrap()).unwrap();
    let game = registry::variant(&row.variant).unwrap();
    let n = row.seat_count;
    let table = game.setup(&row.options, n, row.seed).unwrap();
    let teams = ratings::teams(game, &table, n).unwrap();
    let sides = ratings::sides(&ratings::places(&outcome, n), &teams);
    let pool = ratings::rating_pool(game.info(), &row.options, n);
    let key = |seat: u8| {
        let s = seats.iter().find(|s| s.seat == seat).unwrap();
        (pool.clone(), s.user_id.clone())
    };
    let before: Vec<Rating> = (0..n as u8)
        .map(|seat| fresh.get(&key(seat)).map_or(Rating::NEW, |e| e.0))
        .collect();
    let after = ratings::rate(&before, &sides);
    for seat in 0..n as u8 {
        let name = seats
            .iter()
            .find(|s| s.seat == seat)
            .unwrap()
            .user_name
            .clone();
        let entry = fresh.entry(key(seat)).or_insert((Rating::NEW, 0, name));
        entry.0 = after[seat as usize];
        entry.1 += 1;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_random_rated_games_give_the_leaderboard_computed_afresh() {
    let dir = TempDir::new("ratings");
    let s = service(&dir).await;
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let people: Vec<User> = (1..=12).map(|i| person(&format!("p{i:02}"))).collect();
    let mut played: Vec<(GameId, bool)> = Vec::new();
    for n in 0..200 {
        let (variant, options, seats) = match n % 10 {
            8 => ("doubles", "mode=partners", 4),
            9 => ("doubles", "mode=cutthroat", 4),
            _ => ("chess", "", 2),
        };
        let players: Vec<&User> = people.choose_multiple(&mut rng, seats).collect();
        let id = open(&s, variant, options, &players).await;
        let extra = rng.gen_range(0..6);
        let everyone = everyone_moves(&s, id, &players, extra, &mut rng).await;
        end(&s, id, &players, &mut rng).await;
        assert!(finished(&s, id).await, "game {id} ended");
        played.push((id, everyone));
    }

    // Afresh, in the order the games ended (one at a time, so by number).
    let mut fresh = Fresh::new();
    let mut rated = 0;
    for &(id, everyone) in &played {
        let changes = s.store().rating_changes(id).await.unwrap();
        if !everyone {
            assert!(changes.is_empty(), "game {id} ended before all had moved");
            continue;
        }
        let seats = s.store().seats_of(id).await.unwrap();
        assert_eq!(
            changes.len(),
            seats.len(),
            "game {id}: a change for each player"
        );
        rate_afresh(&s, id, &mut fresh).await;
        rated += 1;
    }
    assert!(rated > 150, "most games were rated: {rated}");

    let mut pools: Vec<String> = fresh.keys().map(|(pool, _)| pool.clone()).collect();
    pools.dedup();
    assert_eq!(pools, ["chess", "doubles", "doubles:partners"]);
    for pool in &pools {
        let stored = s.store().pool_ratings(SERVER, pool).await.unwrap();
        let expected: Vec<_> = fresh.iter().filter(|((p, _), _)| p == pool).collect();
        assert_eq!(
            stored.len(),
            expected.len(),
            "{pool}: one rating per player"
        );
        for row in &stored {
            let (rating, games, _) = fresh[&(pool.clone(), row.user_id.clone())];
            assert!(
                (row.rating - rating.rating).abs() < 1e-6
                    && (row.deviation - rating.deviation).abs() < 1e-6
                    && (row.volatility - rating.volatility).abs() < 1e-9,
                "{pool} {}: stored {row:?}, afresh {rating:?}",
                row.user_id
            );
            assert_eq!(row.games, games, "{pool} {}", row.user_id);
            assert_eq!(row.wins + row.draws + row.losses, games);
        }
    }

    // The leaderboard: the ten best established ratings in order, the provisional apart.
    for (pool, asked) in [
        ("chess", "chess"),
        ("doubles", "doubles cutthroat"),
        ("doubles:partners", "doubles partners"),
    ] {
        let board = s.leaderboard(&lobby(), asked).await.unwrap().text;
        let mut ranked: Vec<(&Rating, &String)> = fresh
            .iter()
            .filter(|((p, _), _)| p == pool)
            .map(|(_, (rating, _, name))| (rating, name))
            .collect();
        ranked.sort_by(|a, b| b.0.rating.total_cmp(&a.0.rating).then(a.1.cmp(b.1)));
        let (settled, provisional): (Vec<_>, Vec<_>) =
            ranked.iter().partition(|(r, _)| !r.is_provisional());
        let lines: Vec<&str> = board.lines().collect();
        let mut at = 0;
        for (i, (rating, name)) in settled.iter().take(10).enumerate() {
            let want = format!("{}. {name} {} (", i + 1, rating.shown());
            match lines[at..].iter().position(|l| l.starts_with(&want)) {
                Some(found) => at += found + 1,
                None => panic!("{pool}: `{want}` missing or out of order in\n{board}"),
            }
        }
        for (i, _) in settled.iter().enumerate().skip(10) {
            assert!(
                !lines.iter().any(|l| l.starts_with(&format!("{}. ", i + 1))),
                "only the top ten:\n{board}"
            );
        }
        if !provisional.is_empty() {
            let apart = lines
                .iter()
                .find(|l| l.starts_with("Provisional"))
                .unwrap_or_else(|| panic!("{pool}: no provisional line in\n{board}"));
            for (rating, name) in provisional.iter().take(10) {
                assert!(
                    apart.contains(&format!("{name} {}", rating.shown())),
                    "{board}"
                );
            }
        }
    }

    // A player's own ratings, by console name.
    let p01 = &people[0];
    let mine = s
        .rating(p01, &lobby(), Some(Who::Name("p01".into())), Some("chess"))
        .await
        .unwrap()
        .text;
    let (chess, _, _) = fresh[&("chess".to_string(), "p01".to_string())];
    assert!(
        mine.contains(&format!("- Chess: {} (", chess.shown())),
        "{mine}"
    );
    let stats = s.stats(p01, &lobby(), None).await.unwrap().text;
    assert!(
        stats.contains("- Chess: ") && stats.contains("No game in progress."),
        "{stats}"
    );
    assert!(stats.contains("- Doubles Chess: "), "{stats}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn casual_games_never_change_ratings() {
    let dir = TempDir::new("casual");
    let s = service(&dir).await;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (alice, bob) = (person("alice"), person("bob"));
    let both = [&alice, &bob];
    let mut casual = Vec::new();

    // Made casual at /play.
    let id = open(&s, "chess", "rated=no", &both).await;
    assert!(everyone_moves(&s, id, &both, 2, &mut rng).await);
    s.resign(&alice, &lobby(), Some(id)).await.unwrap();
    casual.push(id);
    // From a position of the players' own.
    let id = open(&s, "chess", "fen=4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", &both).await;
    assert!(everyone_moves(&s, id, &both, 0, &mut rng).await);
    s.resign(&bob, &lobby(), Some(id)).await.unwrap();
    casual.push(id);
    let id = open(&s, "chess960", "start=518", &both).await;
    assert!(everyone_moves(&s, id, &both, 0, &mut rng).await);
    s.draw(&alice, &lobby(), Some(id), DrawChoice::OfferOrAccept)
        .await
        .unwrap();
    s.draw(&bob, &lobby(), Some(id), DrawChoice::Accept)
        .await
        .unwrap();
    casual.push(id);
    // Against a computer.
    let reply = s
        .create(&alice, &lobby(), "chess", "bots=1", None)
        .await
        .unwrap();
    assert!(reply.text.contains("created and started"), "{}", reply.text);
    let id = s.store().games_of(&alice.id, true).await.unwrap()[0]
        .game
        .id;
    s.resign(&alice, &lobby(), Some(id)).await.unwrap();
    casual.push(id);
    // Over before every player had moved: White moves, Black resigns at once.
    let id = open(&s, "chess", "", &both).await;
    s.act(&alice, &lobby(), Some(id), "e4").await.unwrap();
    s.resign(&bob, &lobby(), Some(id)).await.unwrap();
    casual.push(id);
    let not_rated = s.store().pending(1000).await.unwrap();
    assert!(
        not_rated
            .iter()
            .any(|p| p.game == Some(id) && p.post.text == "Not rated: bob had not moved yet."),
        "the thread is told why"
    );

    for id in &casual {
        assert!(finished(&s, *id).await, "game {id} is over");
        assert!(
            s.store().rating_changes(*id).await.unwrap().is_empty(),
            "game {id}"
        );
    }
    for who in [&alice, &bob] {
        assert!(s
            .store()
            .ratings_of(SERVER, &who.id)
            .await
            .unwrap()
            .is_empty());
    }
    let none = s.rating(&alice, &lobby(), None, None).await.unwrap().text;
    assert!(
        none.starts_with("alice has no rating on this server yet"),
        "{none}"
    );
    let empty = s.leaderboard(&lobby(), "chess").await.unwrap().text;
    assert_eq!(
        empty,
        "No rated game of Chess has been finished on this server yet."
    );

    // The same game rated: both move, then Black resigns.
    let id = open(&s, "chess", "", &both).await;
    s.act(&alice, &lobby(), Some(id), "e4").await.unwrap();
    s.act(&bob, &lobby(), Some(id), "e5").await.unwrap();
    s.resign(&bob, &lobby(), Some(id)).await.unwrap();
    let changes = s.store().rating_changes(id).await.unwrap();
    assert_eq!(changes.len(), 2);
    let after = ratings::rate(
        &[Rating::NEW, Rating::NEW],
        &ratings::sides(&[1, 2], &[0, 1]),
    );
    let expected = format!(
        "Ratings (Chess): {}, {}.",
        ratings::describe_change("alice", Rating::NEW, after[0]),
        ratings::describe_change("bob", Rating::NEW, after[1])
    );
    let posts = s.store().pending(1000).await.unwrap();
    assert!(
        posts
            .iter()
            .any(|p| p.game == Some(id) && p.post.text == expected),
        "the game-over posts give each change: {expected}"
    );
    let mine = s.rating(&alice, &lobby(), None, None).await.unwrap().text;
    assert!(
        mine.contains(&format!("- Chess: {} (", after[0].shown()))
            && mine.contains("1 rated game: 1 win, 0 draws, 0 losses"),
        "{mine}"
    );
    // Casual games still count in a player's statistics; only the rated one in the rating.
    let stats = s
        .stats(&bob, &lobby(), Some(Who::Name("alice".into())))
        .await
        .unwrap()
        .text;
    assert!(
        stats.contains("- Chess: 5 games (3 wins, 0 draws, 2 losses); rating "),
        "{stats}"
    );
    assert!(
        stats.contains("- Chess960: 1 game (0 wins, 1 draw, 0 losses); no rating yet"),
        "{stats}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_names_what_was_not_found() {
    let dir = TempDir::new("ratings-bad");
    let s = service(&dir).await;
    let alice = person("alice");
    let refused = |r: Result<bot::model::Reply, ServiceError>| match r {
        Err(ServiceError::Refused(m)) => m,
        other => panic!("expected a refusal, got {other:?}"),
    };
    let m = refused(
        s.rating(&alice, &lobby(), Some(Who::Name("zed".into())), None)
            .await,
    );
    assert_eq!(m, "no player named 'zed' has played on this server");
    let m = refused(s.leaderboard(&lobby(), "chezz").await);
    assert!(m.contains("unknown variant 'chezz'"), "{m}");
    let m = refused(s.rating(&alice, &lobby(), None, Some("chezz")).await);
    assert!(m.contains("unknown variant 'chezz'"), "{m}");
    let m = refused(s.leaderboard(&lobby(), "doubles solo").await);
    assert!(m.contains("Doubles Chess has no 'solo' rating"), "{m}");
    let m = refused(s.stats(&alice, &Place::DirectMessage, None).await);
    assert!(m.contains("kept per server"), "{m}");
    let m = refused(
        s.create(&alice, &lobby(), "chess", "rated=maybe", None)
            .await,
    );
    assert!(m.contains("rated must be yes or no"), "{m}");
}
