//! Builders the unit tests share: a [`ServerSurface`] assembled field by field
//! instead of a struct literal per test module.
//!
//! ```text
//! let s = testkit::surface("mcp.json#x").at("mcp.json", 4, 7).stdio("npx", &["-y", "pkg"]).build();
//! ```

use crate::surface::{Client, Coverage, Item, Location, ServerSurface, Source, Transport};
use serde_json::{Value, json};

/// A surface with id `id`, named after the part of the id behind `#` (the
/// whole id when it has none), declared at line 1, column 1 of the file the id
/// names, in a `tool-manifest`, with no transport and nothing in its catalog.
pub(crate) fn surface(id: &str) -> SurfaceBuilder {
    let (file, name) = id.split_once('#').unwrap_or((id, id));
    SurfaceBuilder(ServerSurface::new(
        id.into(),
        name.into(),
        Source {
            location: Location::new(file, 1, 1),
            format: "tool-manifest".into(),
            client: None,
        },
        Transport::Unknown,
    ))
}

/// See [`surface`].
pub(crate) struct SurfaceBuilder(ServerSurface);

impl SurfaceBuilder {
    pub(crate) fn name(mut self, name: &str) -> Self {
        self.0.name = name.into();
        self
    }
    /// Where the server is declared.
    pub(crate) fn at(mut self, path: &str, line: u32, column: u32) -> Self {
        self.0.source.location = Location::new(path, line, column);
        self
    }
    /// The source's format (`client-config`, `tool-manifest`, …).
    pub(crate) fn format(mut self, format: &str) -> Self {
        self.0.source.format = format.into();
        self
    }
    pub(crate) fn client(mut self, client: Option<Client>) -> Self {
        self.0.source.client = client;
        self
    }
    pub(crate) fn session(mut self, session: Option<&str>) -> Self {
        self.0.session = session.map(str::to_string);
        self
    }
    pub(crate) fn coverage(mut self, coverage: Coverage) -> Self {
        self.0.coverage = coverage;
        self
    }
    pub(crate) fn transport(mut self, transport: Transport) -> Self {
        self.0.transport = transport;
        self
    }
    /// A stdio launch of `command` with `args`, no environment, no working directory.
    pub(crate) fn stdio(self, command: &str, args: &[&str]) -> Self {
        self.transport(Transport::Stdio {
            command: command.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            env_names: vec![],
            cwd: None,
        })
    }
    /// A tool given as its raw JSON (which must have a string `name`).
    pub(crate) fn tool(self, raw: Value) -> Self {
        self.tool_at(raw, None)
    }
    /// [`Self::tool`], located in its file.
    pub(crate) fn tool_at(mut self, raw: Value, location: Option<Location>) -> Self {
        let name = raw["name"]
            .as_str()
            .expect("a test tool has a string name")
            .to_string();
        self.0.tools.push(Item::new(name, raw, location));
        self
    }
    /// Several tools given as raw JSON.
    pub(crate) fn tools(self, tools: impl IntoIterator<Item = Value>) -> Self {
        tools.into_iter().fold(self, Self::tool)
    }
    /// Tools that have a name and nothing else.
    pub(crate) fn named_tools(self, names: &[&str]) -> Self {
        self.tools(names.iter().map(|n| json!({ "name": n })))
    }
    /// A tool `name` described as `description`.
    pub(crate) fn described_tool(self, name: &str, description: &str) -> Self {
        self.tool(json!({"name": name, "description": description}))
    }
    pub(crate) fn instructions(mut self, instructions: Option<&str>) -> Self {
        self.0.instructions = instructions.map(str::to_string);
        self
    }
    /// The surface, for a test to change further or use as it is.
    pub(crate) fn build(self) -> ServerSurface {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_id_and_builders_set_each_field() {
        let s = surface("mcp.json#notes").build();
        assert_eq!(
            (s.id.as_str(), s.name.as_str()),
            ("mcp.json#notes", "notes")
        );
        assert_eq!(s.source.location, Location::new("mcp.json", 1, 1));
        assert_eq!(s.source.format, "tool-manifest");
        assert_eq!(s.transport, Transport::Unknown);
        assert!(s.tools.is_empty() && s.session.is_none());

        let s = surface("t.json")
            .name("t")
            .at("t.json", 4, 3)
            .format("client-config")
            .client(Some(Client::Cursor))
            .session(Some("t.json"))
            .coverage(Coverage::Lockfile)
            .stdio("npx", &["-y", "pkg@1.0.0"])
            .named_tools(&["a", "b"])
            .described_tool("c", "Does c.")
            .instructions(Some("Be nice."))
            .build();
        assert_eq!(s.name, "t");
        assert_eq!(s.source.location, Location::new("t.json", 4, 3));
        assert_eq!(s.source.client, Some(Client::Cursor));
        assert_eq!(s.session.as_deref(), Some("t.json"));
        assert_eq!(s.coverage, Coverage::Lockfile);
        assert!(
            matches!(&s.transport, Transport::Stdio { command, args, .. }
            if command == "npx" && args == &["-y", "pkg@1.0.0"])
        );
        let names: Vec<&str> = s.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(s.tools[2].description(), "Does c.");
        assert_eq!(s.instructions.as_deref(), Some("Be nice."));
    }
}
