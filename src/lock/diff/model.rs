//! The diff's data: one server's changes, each a kind, a summary and (for
//! text) a word diff. Serialised as is by `diff --format json`.

use serde::Serialize;

/// One kind of semantic change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    ToolAdded,
    ToolRemoved,
    TitleChanged,
    DescriptionChanged,
    PropertyAdded,
    PropertyRemoved,
    TypeChanged,
    EnumChanged,
    PatternChanged,
    DefaultChanged,
    MadeRequired,
    MadeOptional,
    SchemaChanged,
    AnnotationChanged,
    InstructionsChanged,
    PromptAdded,
    PromptRemoved,
    PromptChanged,
    ResourceAdded,
    ResourceRemoved,
    ResourceChanged,
    CapabilitiesChanged,
    ProtocolVersionChanged,
    SpawnChanged,
    PackageVersionChanged,
    ServerAdded,
    ServerRemoved,
}

/// A piece of a word-level diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", content = "text", rename_all = "lowercase")]
pub enum WordPart {
    Equal(String),
    Insert(String),
    Delete(String),
}

/// One change, about one item (a tool, prompt, resource) or the server itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    /// `tools[send_email]`, `prompts[p]`, or `None` for server-level changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// Field path inside the item, e.g. `inputSchema.properties.bcc.default`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// One human line, already safe to print (invisible characters as `<U+XXXX>`).
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// Word-level diff of text changes (descriptions, instructions).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<WordPart>,
    /// Only whitespace differs.
    pub whitespace_only: bool,
}

/// All semantic changes of one server between two surfaces.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CatalogDiff {
    pub server: String,
    pub changes: Vec<Change>,
}

impl CatalogDiff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
    /// Every change is whitespace-only (still drift, but labelled as such).
    pub fn whitespace_only(&self) -> bool {
        !self.changes.is_empty() && self.changes.iter().all(|c| c.whitespace_only)
    }
}
