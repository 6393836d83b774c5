//! A fake Discord on 127.0.0.1, for the end-to-end tests and the load benchmark. Its REST side
//! answers the calls the bot makes and records every one; its gateway greets the real serenity
//! client, answers heartbeats and sends it the interactions a test makes up. Failures (500, 429,
//! no answer, an error after the work was done) can be planned for any route.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot, Notify};
use tokio_tungstenite::tungstenite::Message as Frame;

pub const APP: u64 = 900_000_000_000_000_001;
pub const GUILD: u64 = 800_000_000_000_000_001;

/// A person in the fake guild.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    pub id: u64,
    pub name: &'static str,
}

impl Member {
    /// The `i`th of many players, `player{i}` (for load runs; the name is kept for the run).
    pub fn numbered(i: usize) -> Member {
        Member {
            id: 400_000_000_000_000_000 + i as u64,
            name: Box::leak(format!("player{i}").into_boxed_str()),
        }
    }
}

/// One REST call the bot made, with what the fake answered.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: String,
    pub path: String,
    /// The JSON body, or the `payload_json` part of a multipart body.
    pub json: Value,
    /// Attached files: (file name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    pub status: u16,
}

impl Call {
    /// The message itself: an interaction callback's `data`, or the whole body.
    fn data(&self) -> &Value {
        if self.json.get("data").is_some() {
            &self.json["data"]
        } else {
            &self.json
        }
    }

    /// The message text of a callback, follow-up or post.
    pub fn content(&self) -> String {
        let data = self.data();
        data["content"].as_str().unwrap_or_default().to_string()
    }

    /// Whether the message is for its user alone (flag 64).
    pub fn private(&self) -> bool {
        let data = self.data();
        data["flags"].as_u64().unwrap_or(0) & 64 != 0
    }

    /// The callback type: 4 message, 5 deferred, 7 update, 8 autocomplete.
    pub fn kind(&self) -> u64 {
        self.json["type"].as_u64().unwrap_or(0)
    }

    pub fn png(&self) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(name, _)| name.ends_with(".png"))
            .map(|(_, bytes)| bytes.as_slice())
    }

    /// The custom ids of the message's buttons.
    pub fn buttons(&self) -> Vec<String> {
        let data = self.data();
        data["components"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
            .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
            .collect()
    }

    /// Each attachment's description, as the JSON part declares the attachments.
    pub fn alts(&self) -> Vec<Option<String>> {
        let data = self.data();
        data["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| a["description"].as_str().map(str::to_string))
            .collect()
    }

    /// The users the message may ping.
    pub fn pings(&self) -> Vec<String> {
        let data = self.data();
        data["allowed_mentions"]["users"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|u| {
                u.as_str()
                    .map(str::to_string)
                    .or_else(|| u.as_u64().map(|n| n.to_string()))
            })
            .collect()
    }
}

/// A message posted in a channel or thread.
#[derive(Clone, Debug)]
pub struct Posted {
    pub id: u64,
    pub channel: u64,
    pub content: String,
    pub nonce: Option<String>,
    pub files: Vec<(String, Vec<u8>)>,
    /// Each attachment's description (its alt text), in the order of `files`.
    pub alts: Vec<Option<String>>,
    pub pings: Vec<String>,
    /// The custom ids of its buttons.
    pub buttons: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Thread {
    pub parent: u64,
    pub name: String,
    pub archived: bool,
    pub locked: bool,
}

/// How a planned failure behaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Answer the status and do nothing.
    Refuse,
    /// Do the work, then answer the status anyway (the client cannot tell it arrived).
    AfterWork,
    /// Never answer.
    Hang,
    /// Do the work, then never answer (the caller cannot tell it arrived, and may die waiting).
    HangAfterWork,
}

#[derive(Clone, Debug)]
pub struct Failure {
    pub method: &'static str,
    pub path_contains: String,
    pub status: u16,
    pub times: usize,
    pub mode: Mode,
}

#[derive(Default)]
struct State {
    calls: Vec<Call>,
    posts: Vec<Posted>,
    threads: HashMap<u64, Thread>,
    /// Channels that do not exist (posting there is refused with Unknown Channel).
    gone: Vec<u64>,
    /// Direct-message channels opened, and the user each reaches.
    dm_channels: HashMap<u64, u64>,
    /// Users who do not take direct messages from the bot (Discord answers 50007).
    closed_dms: Vec<u64>,
    /// Channels where creating a thread is forbidden.
    no_threads: Vec<u64>,
    /// Forum channels: a thread there is a post, opened with its first message.
    forums: Vec<u64>,
    failures: Vec<Failure>,
    /// Who waits for the answer to an interaction, by interaction id.
    waiting: HashMap<u64, oneshot::Sender<Call>>,
    identifies: usize,
    /// Each identify's shard, as `[shard, total]`, in order.
    identified: Vec<[u32; 2]>,
    /// The shard of each gateway session, for its resumes.
    sessions: HashMap<String, u32>,
    /// The roles each member holds (none where not given).
    roles: HashMap<u64, Vec<u64>>,
    /// Users who have left the server (Discord answers Unknown Member).
    left: Vec<u64>,
    /// Servers taflbot is not in (Discord answers Missing Access).
    absent: Vec<u64>,
}

struct Inner {
    state: Mutex<State>,
    changed: Notify,
    /// The connected gateway of each shard.
    gateway: Mutex<HashMap<u32, mpsc::UnboundedSender<Frame>>>,
    /// The shards Discord recommends at `GET /gateway/bot`, and the total the bot identified with.
    shards: std::sync::atomic::AtomicU32,
    total: std::sync::atomic::AtomicU32,
    seq: AtomicU64,
    ids: AtomicU64,
    ws_url: String,
    /// Keep every call's files (the load benchmark turns this off).
    keep_files: std::sync::atomic::AtomicBool,
}

/// The fake. Cheap to clone.
#[derive(Clone)]
pub struct Fake {
    inner: Arc<Inner>,
    pub http_url: String,
}

impl Fake {
    pub async fn start() -> Fake {
        let rest = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let gateway = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let http_url = format!("http://{}", rest.local_addr().unwrap());
        let ws_url = format!("ws://{}/gateway", gateway.local_addr().unwrap());
        let inner = Arc::new(Inner {
            state: Mutex::new(State::default()),
            changed: Notify::new(),
            gateway: Mutex::new(HashMap::new()),
            shards: std::sync::atomic::AtomicU32::new(1),
            total: std::sync::atomic::AtomicU32::new(1),
            seq: AtomicU64::new(0),
            ids: AtomicU64::new(1_000_000_000_000_000_000),
            ws_url,
            keep_files: std::sync::atomic::AtomicBool::new(true),
        });
        let i = inner.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = rest.accept().await {
                let _ = stream.set_nodelay(true);
                tokio::spawn(serve_http(i.clone(), stream));
            }
        });
        let i = inner.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = gateway.accept().await {
                let _ = stream.set_nodelay(true);
                tokio::spawn(serve_gateway(i.clone(), stream));
            }
        });
        Fake { inner, http_url }
    }

    pub fn next_id(&self) -> u64 {
        self.inner.ids.fetch_add(1, Ordering::SeqCst)
    }

    pub fn keep_files(&self, keep: bool) {
        self.inner.keep_files.store(keep, Ordering::SeqCst);
    }

    pub fn calls(&self) -> Vec<Call> {
        self.inner.state.lock().unwrap().calls.clone()
    }

    pub fn posts(&self) -> Vec<Posted> {
        self.inner.state.lock().unwrap().posts.clone()
    }

    pub fn posts_in(&self, channel: u64) -> Vec<Posted> {
        self.posts()
            .into_iter()
            .filter(|p| p.channel == channel)
            .collect()
    }

    pub fn thread(&self, id: u64) -> Option<Thread> {
        self.inner.state.lock().unwrap().threads.get(&id).cloned()
    }

    /// The threads opened under `parent`, oldest first.
    pub fn threads_of(&self, parent: u64) -> Vec<u64> {
        let state = self.inner.state.lock().unwrap();
        let mut ids: Vec<u64> = state
            .threads
            .iter()
            .filter(|(_, t)| t.parent == parent)
            .map(|(id, _)| *id)
            .collect();
        ids.sort();
        ids
    }

    pub fn archive(&self, thread: u64, locked: bool) {
        let mut state = self.inner.state.lock().unwrap();
        if let Some(t) = state.threads.get_mut(&thread) {
            t.archived = true;
            t.locked = locked;
        }
    }

    pub fn delete_channel(&self, channel: u64) {
        let mut state = self.inner.state.lock().unwrap();
        state.threads.remove(&channel);
        state.gone.push(channel);
    }

    /// `user` takes no direct messages: sending one is refused as Discord refuses it.
    pub fn close_dms(&self, user: u64) {
        self.inner.state.lock().unwrap().closed_dms.push(user);
    }

    /// The direct messages sent to `user`.
    pub fn dms_to(&self, user: u64) -> Vec<Posted> {
        let state = self.inner.state.lock().unwrap();
        state
            .posts
            .iter()
            .filter(|p| state.dm_channels.get(&p.channel) == Some(&user))
            .cloned()
            .collect()
    }

    /// A thread someone else opened under `parent` (a forum post, a members' thread).
    pub fn open_thread(&self, parent: u64, name: &str) -> u64 {
        let id = self.next_id();
        let thread = Thread {
            parent,
            name: name.to_string(),
            archived: false,
            locked: false,
        };
        self.inner.state.lock().unwrap().threads.insert(id, thread);
        id
    }

    /// Makes `channel` a forum: Discord opens a thread there only as a post with a message.
    pub fn forum(&self, channel: u64) {
        self.inner.state.lock().unwrap().forums.push(channel);
    }

    /// `user` holds `roles` from now on: in the interactions they make and in what Discord says
    /// of them as a member.
    pub fn set_roles(&self, user: u64, roles: &[u64]) {
        self.inner
            .state
            .lock()
            .unwrap()
            .roles
            .insert(user, roles.to_vec());
    }

    /// `user` leaves the server.
    pub fn leave(&self, user: u64) {
        self.inner.state.lock().unwrap().left.push(user);
    }

    /// Server `guild` has not added taflbot.
    pub fn absent(&self, guild: u64) {
        self.inner.state.lock().unwrap().absent.push(guild);
    }

    pub fn forbid_threads(&self, channel: u64) {
        self.inner.state.lock().unwrap().no_threads.push(channel);
    }

    pub fn fail(&self, failure: Failure) {
        self.inner.state.lock().unwrap().failures.push(failure);
    }

    /// Forgets the planned failures not yet used up: every call is answered again.
    pub fn heal(&self) {
        self.inner.state.lock().unwrap().failures.clear();
    }

    pub fn identifies(&self) -> usize {
        self.inner.state.lock().unwrap().identifies
    }

    /// Each identify's `[shard, total]`, in order.
    pub fn identified(&self) -> Vec<[u32; 2]> {
        self.inner.state.lock().unwrap().identified.clone()
    }

    /// The number of shards `GET /gateway/bot` recommends.
    pub fn recommend_shards(&self, n: u32) {
        self.inner.shards.store(n, Ordering::SeqCst);
    }

    /// Waits until a recorded call satisfies `pred`, and returns the first that does.
    pub async fn wait_call(&self, what: &str, pred: impl Fn(&Call) -> bool) -> Call {
        self.wait(what, || {
            let state = self.inner.state.lock().unwrap();
            state.calls.iter().find(|c| pred(c)).cloned()
        })
        .await
    }

    /// Waits until a post satisfies `pred`.
    pub async fn wait_post(&self, what: &str, pred: impl Fn(&Posted) -> bool) -> Posted {
        self.wait(what, || {
            let state = self.inner.state.lock().unwrap();
            state.posts.iter().find(|p| pred(p)).cloned()
        })
        .await
    }

    async fn wait<T>(&self, what: &str, probe: impl Fn() -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let notified = self.inner.changed.notified();
            if let Some(found) = probe() {
                return found;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                panic!("the fake Discord waited 20 s in vain for {what}");
            }
        }
    }

    /// The bot's configuration for this fake: its REST address and the fake guild.
    pub fn config(&self) -> taflbot::discord::Config {
        let mut config = taflbot::discord::Config::new("fake.bot.token");
        config.api_base = Some(self.http_url.clone());
        config.guild_id = Some(GUILD);
        // The corpus's puzzles take minutes of CPU; a test that wants puzzles stores its own.
        config.corpus_puzzles = false;
        config
    }

    /// Starts the real bot on `service` with `config`, and waits until it has registered its
    /// commands and identified on the gateway.
    pub async fn connect(
        &self,
        config: taflbot::discord::Config,
        service: taflbot::service::Service,
    ) -> taflbot::discord::Running {
        let before = self.identifies();
        let bot = taflbot::discord::start(config, service)
            .await
            .expect("the bot starts");
        self.registered().await;
        while self.identifies() == before {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        bot
    }

    /// Waits for the bot to register its commands.
    pub async fn registered(&self) -> Call {
        self.wait_call("the command registration", |c| {
            c.method == "PUT" && c.path.ends_with("/commands")
        })
        .await
    }

    /// Sends a gateway dispatch event.
    pub fn dispatch(&self, name: &str, d: Value) {
        let s = self.inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let frame = json!({"op": 0, "t": name, "s": s, "d": d});
        // A server's events go to its shard, as Discord sends them; others to shard 0.
        let shard = d["guild_id"]
            .as_str()
            .and_then(|g| g.parse::<u64>().ok())
            .map_or(0, |g| {
                taflbot::discord::Shards::of_guild(g, self.inner.total.load(Ordering::SeqCst))
            });
        let sender = self.inner.gateway.lock().unwrap().get(&shard).cloned();
        sender
            .unwrap_or_else(|| panic!("no bot runs shard {shard} on the fake gateway"))
            .send(Frame::Text(frame.to_string()))
            .expect("the gateway socket is gone");
    }

    /// Sends an interaction (checked first to deserialize as serenity's) and returns a receiver
    /// of the bot's answer to it: the callback, or the edit of a deferred answer.
    pub fn interact(&self, interaction: Value) -> oneshot::Receiver<Call> {
        if let Err(e) = serde_json::from_value::<serenity::all::Interaction>(interaction.clone()) {
            panic!("the fixture is not an interaction serenity reads: {e}\n{interaction:#}");
        }
        let id: u64 = interaction["id"].as_str().unwrap().parse().unwrap();
        let (tx, rx) = oneshot::channel();
        self.inner.state.lock().unwrap().waiting.insert(id, tx);
        self.dispatch("INTERACTION_CREATE", interaction);
        rx
    }

    /// Sends an interaction and waits for its answer.
    pub async fn ask(&self, interaction: Value) -> Call {
        let rx = self.interact(interaction);
        match tokio::time::timeout(Duration::from_secs(20), rx).await {
            Ok(Ok(call)) => call,
            _ => panic!("the bot did not answer an interaction within 20 s"),
        }
    }

    // ----- fixtures -----

    fn base(&self, kind: u8, who: Member, channel: u64) -> (u64, Value) {
        let id = self.next_id();
        let place = self.channel_json(channel);
        let value = json!({
            "id": id.to_string(),
            "application_id": APP.to_string(),
            "type": kind,
            "token": format!("token{id}"),
            "version": 1,
            "channel_id": channel.to_string(),
            "channel": place,
            "guild_id": GUILD.to_string(),
            "member": self.member_with_roles(who),
            // Given in a server (0) that installed taflbot (a server install, "0", names it).
            "context": 0,
            "authorizing_integration_owners": {"0": GUILD.to_string()},
            "locale": "en-GB",
            "guild_locale": "en-GB",
            "entitlements": [],
            "attachment_size_limit": 26_214_400,
            "app_permissions": "2251799813685247",
        });
        (id, value)
    }

    /// A member as an interaction describes them, with the roles they hold.
    fn member_with_roles(&self, who: Member) -> Value {
        let mut member = member_json(who);
        let roles = self.inner.state.lock().unwrap().roles.get(&who.id).cloned();
        let roles: Vec<String> = roles
            .unwrap_or_default()
            .iter()
            .map(u64::to_string)
            .collect();
        member["roles"] = json!(roles);
        member
    }

    /// A channel as Discord describes it: a thread (with its parent), a forum, or a text channel.
    fn channel_json(&self, channel: u64) -> Value {
        let state = self.inner.state.lock().unwrap();
        channel_json(&state, channel)
    }

    /// A slash command. `options` are (name, value) pairs: strings become string options,
    /// integers integer options, booleans boolean options; a `Member` value is a user option.
    pub fn slash(&self, who: Member, channel: u64, name: &str, options: &[(&str, Opt)]) -> Value {
        self.command(2, who, channel, name, options, None)
    }

    /// An autocomplete request while `focused` is being typed.
    pub fn autocomplete(
        &self,
        who: Member,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
        focused: &str,
    ) -> Value {
        self.command(4, who, channel, name, options, Some(focused))
    }

    fn command(
        &self,
        kind: u8,
        who: Member,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
        focused: Option<&str>,
    ) -> Value {
        let (_, mut value) = self.base(kind, who, channel);
        let mut users = serde_json::Map::new();
        let mut members = serde_json::Map::new();
        let mut roles = serde_json::Map::new();
        let options: Vec<Value> = options
            .iter()
            .map(|(option, v)| {
                let mut o = match v {
                    Opt::Str(s) => json!({"name": option, "type": 3, "value": s}),
                    Opt::Int(n) => json!({"name": option, "type": 4, "value": n}),
                    Opt::Bool(b) => json!({"name": option, "type": 5, "value": b}),
                    Opt::User(m) => {
                        users.insert(m.id.to_string(), user_json(*m));
                        let mut member = member_json(*m);
                        member.as_object_mut().unwrap().remove("user");
                        members.insert(m.id.to_string(), member);
                        json!({"name": option, "type": 6, "value": m.id.to_string()})
                    }
                    Opt::Role(id, name) | Opt::UnmentionableRole(id, name) => {
                        let mut role = role_json(*id, name);
                        role["mentionable"] = json!(matches!(v, Opt::Role(..)));
                        roles.insert(id.to_string(), role);
                        json!({"name": option, "type": 8, "value": id.to_string()})
                    }
                };
                if focused == Some(option) {
                    // While typing, Discord sends the text typed so far as a string.
                    let typed = match v {
                        Opt::Int(n) => n.to_string(),
                        Opt::Str(s) => s.clone(),
                        _ => String::new(),
                    };
                    o["type"] = json!(if matches!(v, Opt::Int(_)) { 4 } else { 3 });
                    o["value"] = json!(typed);
                    o["focused"] = json!(true);
                }
                o
            })
            .collect();
        // A command of two words is a subcommand: Discord nests its options under it.
        let (name, options) = match name.split_once(' ') {
            Some((group, sub)) => (
                group,
                vec![json!({"name": sub, "type": 1, "options": options})],
            ),
            None => (name, options),
        };
        value["data"] = json!({
            "id": "1",
            "name": name,
            "type": 1,
            "options": options,
            "resolved": {"users": users, "members": members, "roles": roles},
        });
        value
    }

    /// A press of the button `custom_id` under a message of the bot in `channel`.
    pub fn press(&self, who: Member, channel: u64, custom_id: &str) -> Value {
        let (_, mut value) = self.base(3, who, channel);
        value["message"] = message_json(self.next_id(), channel, "", None);
        value["data"] = json!({"custom_id": custom_id, "component_type": 2});
        value
    }
}

/// An option value of a fixture.
#[derive(Clone, Debug)]
pub enum Opt {
    Str(String),
    Int(i64),
    Bool(bool),
    User(Member),
    /// A role: its id and name.
    Role(u64, &'static str),
    /// A role whose members Discord does not notify of a mention (`mentionable` false).
    UnmentionableRole(u64, &'static str),
}

/// A role of the fake's server, as Discord describes it.
pub fn role_json(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(), "name": name, "color": 0, "hoist": false, "icon": null,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "unicode_emoji": null, "position": 1, "permissions": "0", "managed": false,
        "mentionable": true, "flags": 0,
    })
}

/// The same interaction, from a member without Manage Server (the fixtures' members have every
/// permission).
pub fn not_a_manager(mut interaction: Value) -> Value {
    // View Channel, Send Messages, Read Message History, Use Application Commands.
    interaction["member"]["permissions"] = json!("2147552256");
    interaction
}

/// The same interaction, sent from the server `guild` instead of the fake's own (its events then
/// go to that server's shard).
pub fn in_guild(mut interaction: Value, guild: u64) -> Value {
    interaction["guild_id"] = json!(guild.to_string());
    interaction["authorizing_integration_owners"] = json!({"0": guild.to_string()});
    interaction
}

/// Where a command installed on a user's account is given, outside a server with taflbot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elsewhere {
    /// The bot's own direct messages.
    BotDm,
    /// A group DM, or a DM between the user and someone else.
    GroupDm,
    /// A server that has not installed taflbot (only the user has).
    OtherServer(u64),
}

/// The same interaction given `where_`, as Discord sends one of a user install: no member there
/// but in a server, the user at the top, and the user's install as what authorized it.
pub fn elsewhere(mut interaction: Value, where_: Elsewhere) -> Value {
    let user = interaction["member"]["user"].clone();
    let user_id = user["id"].clone();
    let channel = interaction["channel_id"].clone();
    let o = interaction.as_object_mut().unwrap();
    o.insert("user".into(), user);
    o.insert(
        "authorizing_integration_owners".into(),
        json!({"1": user_id}),
    );
    match where_ {
        Elsewhere::OtherServer(guild) => {
            o.insert("guild_id".into(), json!(guild.to_string()));
            o.insert("context".into(), json!(0));
        }
        Elsewhere::BotDm | Elsewhere::GroupDm => {
            o.remove("guild_id");
            o.remove("member");
            o.remove("guild_locale");
            let (context, kind) = if where_ == Elsewhere::BotDm {
                (1, 1)
            } else {
                (2, 3)
            };
            o.insert("context".into(), json!(context));
            o.insert("channel".into(), json!({"id": channel, "type": kind}));
            // Outside a server the app has only the permissions of a user install.
            o.insert("app_permissions".into(), json!("0"));
        }
    }
    interaction
}

pub fn s(text: &str) -> Opt {
    Opt::Str(text.to_string())
}

pub fn user_json(m: Member) -> Value {
    json!({
        "id": m.id.to_string(),
        "username": m.name,
        "global_name": m.name,
        "discriminator": "0",
        "avatar": null,
        "bot": false,
    })
}

pub fn member_json(m: Member) -> Value {
    json!({
        "user": user_json(m),
        "nick": null,
        "roles": [],
        "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "deaf": false,
        "mute": false,
        "flags": 0,
        "permissions": "2251799813685247",
    })
}

fn bot_user() -> Value {
    json!({"id": APP.to_string(), "username": "taflbot", "discriminator": "0", "global_name": null,
           "avatar": null, "bot": true})
}

fn message_json(id: u64, channel: u64, content: &str, nonce: Option<&str>) -> Value {
    json!({
        "id": id.to_string(),
        "channel_id": channel.to_string(),
        "author": bot_user(),
        "content": content,
        "timestamp": "2026-11-22T00:00:00.000000+00:00",
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": 0,
        "nonce": nonce,
    })
}

fn channel_json(state: &State, channel: u64) -> Value {
    if let Some(t) = state.threads.get(&channel) {
        return thread_json(channel, t);
    }
    let kind = if state.forums.contains(&channel) {
        15
    } else {
        0
    };
    json!({
        "id": channel.to_string(),
        "type": kind,
        "name": format!("channel-{channel}"),
        "guild_id": GUILD.to_string(),
        "position": 0,
        "permission_overwrites": [],
        "nsfw": false,
        "parent_id": null,
    })
}

fn thread_json(id: u64, t: &Thread) -> Value {
    json!({
        "id": id.to_string(),
        "type": 11,
        "name": t.name,
        "guild_id": GUILD.to_string(),
        "parent_id": t.parent.to_string(),
        "thread_metadata": {"archived": t.archived, "locked": t.locked,
                            "auto_archive_duration": 10080,
                            "archive_timestamp": "2026-11-22T00:00:00.000000+00:00"},
    })
}

// ----- the gateway -----

async fn serve_gateway(inner: Arc<Inner>, stream: TcpStream) {
    let Ok(ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (mut sink, mut source) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Frame>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41_250}});
    if sink.send(Frame::Text(hello.to_string())).await.is_err() {
        return;
    }
    let writer = tokio::spawn(async move {
        while let Some(frame) = rx.recv().await {
            if sink.send(frame).await.is_err() {
                break;
            }
        }
    });
    while let Some(Ok(frame)) = source.next().await {
        let Frame::Text(text) = frame else {
            if matches!(frame, Frame::Close(_)) {
                break;
            }
            continue;
        };
        let Ok(payload) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        match payload["op"].as_u64() {
            Some(1) => {
                let _ = tx.send(Frame::Text(json!({"op": 11}).to_string()));
            }
            Some(2) => {
                let shard = &payload["d"]["shard"];
                let (id, total) = (
                    shard[0].as_u64().unwrap_or(0) as u32,
                    shard[1].as_u64().unwrap_or(1) as u32,
                );
                let s = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
                {
                    let mut state = inner.state.lock().unwrap();
                    state.identifies += 1;
                    state.identified.push([id, total]);
                    state.sessions.insert(format!("session{s}"), id);
                }
                inner.total.store(total, Ordering::SeqCst);
                inner.gateway.lock().unwrap().insert(id, tx.clone());
                let ready = json!({"op": 0, "t": "READY", "s": s, "d": {
                    "v": 10,
                    "user": bot_user(),
                    "guilds": [],
                    "session_id": format!("session{s}"),
                    "resume_gateway_url": inner.ws_url,
                    "application": {"id": APP.to_string(), "flags": 0},
                }});
                let _ = tx.send(Frame::Text(ready.to_string()));
            }
            Some(6) => {
                let session = payload["d"]["session_id"].as_str().unwrap_or_default();
                let shard = inner.state.lock().unwrap().sessions.get(session).copied();
                inner
                    .gateway
                    .lock()
                    .unwrap()
                    .insert(shard.unwrap_or(0), tx.clone());
                let s = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
                let resumed = json!({"op": 0, "t": "RESUMED", "s": s, "d": {}});
                let _ = tx.send(Frame::Text(resumed.to_string()));
            }
            _ => {}
        }
    }
    writer.abort();
}

// ----- REST -----

struct Request {
    method: String,
    path: String,
    content_type: String,
    body: Vec<u8>,
}

async fn serve_http(inner: Arc<Inner>, mut stream: TcpStream) {
    let mut buf = Vec::with_capacity(64 * 1024);
    loop {
        let Some(request) = read_request(&mut stream, &mut buf).await else {
            return;
        };
        let (status, body) = handle(&inner, request).await;
        let reason = match status {
            200 => "OK",
            204 => "No Content",
            400 => "Bad Request",
            403 => "Forbidden",
            404 => "Not Found",
            429 => "Too Many Requests",
            _ => "Error",
        };
        let mut head = format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-length: {}\r\n",
            body.len()
        );
        if !body.is_empty() {
            head.push_str("content-type: application/json\r\n");
        }
        head.push_str("\r\n");
        let mut out = head.into_bytes();
        out.extend_from_slice(&body);
        if stream.write_all(&out).await.is_err() {
            return;
        }
    }
}

async fn read_request(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Option<Request> {
    loop {
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut headers);
        if let Ok(httparse::Status::Complete(head_len)) = req.parse(buf) {
            let method = req.method?.to_string();
            let path = req.path?.to_string();
            let header = |name: &str| {
                req.headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case(name))
                    .map(|h| String::from_utf8_lossy(h.value).to_string())
            };
            let content_type = header("content-type").unwrap_or_default();
            let chunked = header("transfer-encoding").is_some_and(|v| v.contains("chunked"));
            let length: Option<usize> =
                header("content-length").and_then(|v| v.trim().parse().ok());
            let body = if chunked {
                read_chunked(stream, buf, head_len).await?
            } else {
                let length = length.unwrap_or(0);
                while buf.len() < head_len + length {
                    read_more(stream, buf).await?;
                }
                let body = buf[head_len..head_len + length].to_vec();
                buf.drain(..head_len + length);
                body
            };
            return Some(Request {
                method,
                path,
                content_type,
                body,
            });
        }
        read_more(stream, buf).await?;
    }
}

async fn read_more(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Option<()> {
    let mut chunk = [0u8; 16 * 1024];
    let n = stream.read(&mut chunk).await.ok()?;
    if n == 0 {
        return None;
    }
    buf.extend_from_slice(&chunk[..n]);
    Some(())
}

async fn read_chunked(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    head_len: usize,
) -> Option<Vec<u8>> {
    let mut at = head_len;
    let mut body = Vec::new();
    loop {
        let line_end = loop {
            if let Some(i) = buf[at..].windows(2).position(|w| w == b"\r\n") {
                break at + i;
            }
            read_more(stream, buf).await?;
        };
        let size_text = String::from_utf8_lossy(&buf[at..line_end]).to_string();
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        let start = line_end + 2;
        while buf.len() < start + size + 2 {
            read_more(stream, buf).await?;
        }
        body.extend_from_slice(&buf[start..start + size]);
        at = start + size + 2;
        if size == 0 {
            buf.drain(..at);
            return Some(body);
        }
    }
}

/// The JSON payload and the files of a body.
fn parse_body(content_type: &str, body: &[u8]) -> (Value, Vec<(String, Vec<u8>)>) {
    let Some(boundary) = content_type.split("boundary=").nth(1) else {
        return (
            serde_json::from_slice(body).unwrap_or(Value::Null),
            Vec::new(),
        );
    };
    let boundary = format!("--{}", boundary.trim_matches('"'));
    let mut json = Value::Null;
    let mut files = Vec::new();
    for part in split(body, boundary.as_bytes()).into_iter().skip(1) {
        if part.starts_with(b"--") {
            break;
        }
        let Some(head_end) = part.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&part[..head_end]).to_string();
        let head = head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-disposition"))
            .unwrap_or_default()
            .to_string();
        let mut content = &part[head_end + 4..];
        if content.ends_with(b"\r\n") {
            content = &content[..content.len() - 2];
        }
        let field = |key: &str| {
            head.split(';')
                .map(str::trim)
                .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
                .map(|v| v.trim_matches('"').to_string())
        };
        match (field("name").as_deref(), field("filename")) {
            (Some("payload_json"), _) => {
                json = serde_json::from_slice(content).unwrap_or(Value::Null)
            }
            (_, Some(filename)) => files.push((filename, content.to_vec())),
            _ => {}
        }
    }
    (json, files)
}

fn split<'a>(body: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + sep.len() <= body.len() {
        if &body[i..i + sep.len()] == sep {
            parts.push(&body[start..i]);
            i += sep.len();
            // Skip the line break after the boundary.
            if body[i..].starts_with(b"\r\n") {
                i += 2;
            }
            start = i;
        } else {
            i += 1;
        }
    }
    parts.push(&body[start..]);
    parts
}

fn error_body(status: u16, code: u64, message: &str) -> Vec<u8> {
    let mut v = json!({"message": message, "code": code});
    if status == 429 {
        v["retry_after"] = json!(0.05);
        v["global"] = json!(false);
    }
    v.to_string().into_bytes()
}

async fn handle(inner: &Inner, req: Request) -> (u16, Vec<u8>) {
    let (json, files) = parse_body(&req.content_type, &req.body);
    let path = req
        .path
        .split('?')
        .next()
        .unwrap_or_default()
        .trim_start_matches("/api/v10")
        .to_string();
    let planned = {
        let mut state = inner.state.lock().unwrap();
        let found = state
            .failures
            .iter_mut()
            .find(|f| f.times > 0 && f.method == req.method && path.contains(&f.path_contains));
        found.map(|f| {
            f.times -= 1;
            (f.status, f.mode)
        })
    };
    let mut call = Call {
        method: req.method.clone(),
        path: path.clone(),
        json,
        files,
        status: 0,
    };
    if let Some((status, mode)) = planned {
        match mode {
            Mode::Hang | Mode::HangAfterWork => {
                let done =
                    mode == Mode::HangAfterWork && route(inner, &req.method, &path, &call).0 < 300;
                call.status = 0;
                record(inner, call, done);
                tokio::time::sleep(Duration::from_secs(3600)).await;
                return (500, Vec::new());
            }
            Mode::Refuse => {
                call.status = status;
                record(inner, call, false);
                return (status, error_body(status, 0, "planned failure"));
            }
            Mode::AfterWork => {
                let (done, _) = route(inner, &req.method, &path, &call);
                call.status = status;
                record(inner, call, done < 300);
                return (
                    status,
                    error_body(status, 0, "planned failure after the work"),
                );
            }
        }
    }
    let (status, body) = route(inner, &req.method, &path, &call);
    call.status = status;
    record(inner, call, status < 300);
    (status, body)
}

/// Records a call, and hands an interaction's answer to whoever waits for it.
fn record(inner: &Inner, mut call: Call, succeeded: bool) {
    let mut state = inner.state.lock().unwrap();
    if succeeded {
        let parts: Vec<&str> = call.path.split('/').collect();
        let interaction = match parts.as_slice() {
            // Deferrals (5, 6) are not answers; what follows them is.
            ["", "interactions", id, _, "callback"] if !matches!(call.kind(), 5 | 6) => {
                id.parse::<u64>().ok()
            }
            ["", "webhooks", _, token, "messages", "@original"] if call.method == "PATCH" => {
                token.trim_start_matches("token").parse::<u64>().ok()
            }
            ["", "webhooks", _, token] if call.method == "POST" => {
                token.trim_start_matches("token").parse::<u64>().ok()
            }
            _ => None,
        };
        if let Some(id) = interaction {
            if let Some(waiter) = state.waiting.remove(&id) {
                let _ = waiter.send(call.clone());
            }
        }
    }
    if !inner.keep_files.load(Ordering::Relaxed) {
        call.files.iter_mut().for_each(|(_, bytes)| bytes.clear());
    }
    state.calls.push(call);
    drop(state);
    inner.changed.notify_waiters();
}

/// Does what Discord would do for a call, and answers it.
fn route(inner: &Inner, method: &str, path: &str, call: &Call) -> (u16, Vec<u8>) {
    let parts: Vec<&str> = path.split('/').collect();
    let ok = |v: Value| (200, v.to_string().into_bytes());
    match (method, parts.as_slice()) {
        ("GET", ["", "gateway"]) => ok(json!({"url": inner.ws_url})),
        ("GET", ["", "gateway", "bot"]) => ok(json!({
            "url": inner.ws_url, "shards": inner.shards.load(Ordering::SeqCst),
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        })),
        ("GET", ["", "users", "@me"]) => ok(bot_user()),
        ("PUT", ["", "applications", _, "commands"])
        | ("PUT", ["", "applications", _, "guilds", _, "commands"]) => ok(json!([])),
        ("POST", ["", "interactions", _, _, "callback"]) => (204, Vec::new()),
        ("DELETE", ["", "webhooks", _, _, "messages", "@original"]) => (204, Vec::new()),
        ("POST", ["", "webhooks", _, _]) | ("PATCH", ["", "webhooks", _, _, "messages", _]) => {
            let id = inner.ids.fetch_add(1, Ordering::SeqCst);
            ok(message_json(id, 0, &call.content(), None))
        }
        ("POST", ["", "users", "@me", "channels"]) => {
            let user: u64 = call.json["recipient_id"]
                .as_str()
                .and_then(|u| u.parse().ok())
                .or_else(|| call.json["recipient_id"].as_u64())
                .unwrap_or(0);
            let mut state = inner.state.lock().unwrap();
            let id = match state.dm_channels.iter().find(|(_, u)| **u == user) {
                Some((id, _)) => *id,
                None => {
                    let id = inner.ids.fetch_add(1, Ordering::SeqCst);
                    state.dm_channels.insert(id, user);
                    id
                }
            };
            ok(json!({
                "id": id.to_string(), "type": 1, "last_message_id": null,
                "recipients": [{"id": user.to_string(), "username": format!("user{user}"),
                                "discriminator": "0", "global_name": null, "avatar": null}]
            }))
        }
        ("POST", ["", "channels", channel, "messages"]) => {
            let channel: u64 = channel.parse().unwrap_or(0);
            let mut state = inner.state.lock().unwrap();
            if state.gone.contains(&channel) {
                return (404, error_body(404, 10003, "Unknown Channel"));
            }
            if state
                .dm_channels
                .get(&channel)
                .is_some_and(|user| state.closed_dms.contains(user))
            {
                return (
                    403,
                    error_body(403, 50007, "Cannot send messages to this user"),
                );
            }
            if state.threads.get(&channel).is_some_and(|t| t.archived) {
                return (400, error_body(400, 50083, "Thread is archived"));
            }
            let nonce = call.json["nonce"].as_str().map(str::to_string);
            if call.json["enforce_nonce"] == json!(true) {
                if let Some(same) = state
                    .posts
                    .iter()
                    .find(|p| p.channel == channel && p.nonce.is_some() && p.nonce == nonce)
                {
                    return ok(message_json(
                        same.id,
                        channel,
                        &same.content,
                        nonce.as_deref(),
                    ));
                }
            }
            let id = inner.ids.fetch_add(1, Ordering::SeqCst);
            state.posts.push(Posted {
                id,
                channel,
                content: call.content(),
                nonce: nonce.clone(),
                files: call.files.clone(),
                alts: call.alts(),
                pings: call.pings(),
                buttons: call.buttons(),
            });
            ok(message_json(id, channel, &call.content(), nonce.as_deref()))
        }
        ("POST", ["", "channels", channel, "threads"]) => {
            let parent: u64 = channel.parse().unwrap_or(0);
            let mut state = inner.state.lock().unwrap();
            if state.gone.contains(&parent) {
                return (404, error_body(404, 10003, "Unknown Channel"));
            }
            // Discord's rules: no thread inside a thread; a forum's thread is a post that comes
            // with its first message; a name of 1 to 100 characters.
            if state.threads.contains_key(&parent) {
                return (
                    400,
                    error_body(400, 50024, "Cannot execute action on this channel type"),
                );
            }
            let name = call.json["name"].as_str().unwrap_or_default().to_string();
            let message = &call.json["message"];
            let forum = state.forums.contains(&parent);
            if name.is_empty() || name.chars().count() > 100 || (forum && !message.is_object()) {
                return (400, error_body(400, 50035, "Invalid Form Body"));
            }
            if state.no_threads.contains(&parent) {
                return (403, error_body(403, 50013, "Missing Permissions"));
            }
            let id = inner.ids.fetch_add(1, Ordering::SeqCst);
            let thread = Thread {
                parent,
                name,
                archived: false,
                locked: false,
            };
            let body = thread_json(id, &thread);
            state.threads.insert(id, thread);
            if forum {
                let post = inner.ids.fetch_add(1, Ordering::SeqCst);
                state.posts.push(Posted {
                    id: post,
                    channel: id,
                    content: message["content"].as_str().unwrap_or_default().to_string(),
                    nonce: None,
                    files: Vec::new(),
                    alts: Vec::new(),
                    pings: Vec::new(),
                    buttons: Vec::new(),
                });
            }
            ok(body)
        }
        ("GET", ["", "guilds", guild]) => {
            let absent = guild
                .parse::<u64>()
                .is_ok_and(|g| inner.state.lock().unwrap().absent.contains(&g));
            if absent {
                return (403, error_body(403, 50001, "Missing Access"));
            }
            ok(json!({"id": guild, "name": format!("Server {guild}")}))
        }
        ("GET", ["", "guilds", _, "members", user]) => {
            let user: u64 = user.parse().unwrap_or(0);
            let state = inner.state.lock().unwrap();
            if state.left.contains(&user) {
                return (404, error_body(404, 10007, "Unknown Member"));
            }
            let roles: Vec<String> = state
                .roles
                .get(&user)
                .map(|r| r.iter().map(u64::to_string).collect())
                .unwrap_or_default();
            let mut member = member_json(Member {
                id: user,
                name: "member",
            });
            member["roles"] = json!(roles);
            ok(member)
        }
        ("PATCH", ["", "channels", channel, "messages", message]) => {
            let (channel, message): (u64, u64) =
                (channel.parse().unwrap_or(0), message.parse().unwrap_or(0));
            let mut state = inner.state.lock().unwrap();
            let Some(post) = state
                .posts
                .iter_mut()
                .find(|p| p.id == message && p.channel == channel)
            else {
                return (404, error_body(404, 10008, "Unknown Message"));
            };
            if let Some(content) = call.json["content"].as_str() {
                post.content = content.to_string();
            }
            ok(message_json(message, channel, &post.content, None))
        }
        ("DELETE", ["", "channels", channel, "messages", message]) => {
            let (channel, message): (u64, u64) =
                (channel.parse().unwrap_or(0), message.parse().unwrap_or(0));
            let mut state = inner.state.lock().unwrap();
            state
                .posts
                .retain(|p| !(p.id == message && p.channel == channel));
            (204, Vec::new())
        }
        ("GET", ["", "channels", channel]) => {
            let id: u64 = channel.parse().unwrap_or(0);
            let state = inner.state.lock().unwrap();
            if state.gone.contains(&id) {
                return (404, error_body(404, 10003, "Unknown Channel"));
            }
            ok(channel_json(&state, id))
        }
        ("PATCH", ["", "channels", channel]) => {
            let id: u64 = channel.parse().unwrap_or(0);
            let mut state = inner.state.lock().unwrap();
            let Some(thread) = state.threads.get_mut(&id) else {
                return (404, error_body(404, 10003, "Unknown Channel"));
            };
            if thread.locked {
                return (403, error_body(403, 50013, "Missing Permissions"));
            }
            if let Some(archived) = call.json["archived"].as_bool() {
                thread.archived = archived;
            }
            ok(thread_json(id, thread))
        }
        _ => (404, error_body(404, 0, "404: Not Found")),
    }
}
