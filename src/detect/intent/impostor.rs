//! Tool names that imitate a well-known tool: look-alike characters read
//! alike, two letters swapped, or the imitated name written in the text.

use super::tables::tables;
use crate::surface::ServerSurface;

/// The well-known tool a name imitates: the same once characters that look
/// alike are read alike (`read_flle`, `list_direct0ry`, `send_emaiI`), never
/// the name itself. A name that is merely similar (`send_mail`) is not one.
pub(super) fn impostor_of(name: &str) -> Option<&'static str> {
    let t = tables();
    let n = name.to_lowercase();
    if n.len() < 6 || t.known_tools.contains(&n) {
        return None;
    }
    let folded = look_alike_fold(&n);
    t.known_list
        .iter()
        .filter(|k| k.len() >= 6 && k.len().abs_diff(n.len()) <= 1)
        .find(|k| imitates(&folded, k))
        .map(|k| k.as_str())
}

/// The tool a name imitates when the text itself names it: "this is the
/// current release of submit_mt103" in a tool called `submit_mt1O3`,
/// "kubectl_apply is deprecated" in `kubectl_appIy`. Only a name written as
/// a tool's (joined by `_`), and never one of this server's own tools.
pub(super) fn impostor_of_named(s: &ServerSurface, name: &str, text: &str) -> Option<String> {
    let n = name.to_lowercase();
    if n.len() < 6 || !text.contains('_') {
        return None;
    }
    let folded = look_alike_fold(&n);
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 6 && w.contains('_') && w.len().abs_diff(n.len()) <= 1)
        .find(|w| *w != n && s.tool(w).is_none() && imitates(&folded, w))
        .map(str::to_string)
}

/// Whether `candidate`, read with look-alike characters alike, is the folded
/// name `folded` or it with two adjacent letters swapped.
fn imitates(folded: &str, candidate: &str) -> bool {
    let k = look_alike_fold(candidate);
    k == folded || swapped_letters(&k, folded) || dropped_double(folded, &k)
}

/// A name that is a well-known one with one letter of a doubled pair
/// dropped (`slack_post_mesage`, `git_comit`): a slip that reads right at a
/// glance. A dropped final letter (`read_file` beside `read_files`) is not one.
pub(super) fn dropped_double(name: &str, known: &str) -> bool {
    let (a, b) = (name.as_bytes(), known.as_bytes());
    if b.len() != a.len() + 1 {
        return false;
    }
    let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) else {
        return false;
    };
    // `b[i]` is the dropped letter; it doubles its neighbour.
    let doubled = (i > 0 && b[i - 1] == b[i]) || b.get(i + 1) == Some(&b[i]);
    let ends_word = b.get(i + 1).is_none_or(|c| !c.is_ascii_alphabetic());
    doubled && b[i].is_ascii_alphabetic() && !ends_word && a[i..] == b[i + 1..]
}

/// A name with look-alike characters read alike (`0`→`o`, `1`/`i`→`l`, `rn`→`m`).
fn look_alike_fold(s: &str) -> String {
    let s = s.replace("rn", "m").replace("vv", "w").replace("cl", "d");
    s.chars()
        .map(|c| match c {
            '0' => 'o',
            '1' | 'i' | '|' | '!' => 'l',
            '3' => 'e',
            '5' => 's',
            '4' => 'a',
            '8' => 'b',
            c => c,
        })
        .collect()
}

/// Two names that differ only by two adjacent letters swapped
/// (`brave_web_serach`): a typing slip, the classic typosquat. A letter
/// added or dropped is not one (`read_files` beside `read_file` is honest).
pub(super) fn swapped_letters(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) else {
        return false;
    };
    i + 1 < a.len()
        && a[i].is_ascii_alphabetic()
        && a[i + 1].is_ascii_alphabetic()
        && a[i] == b[i + 1]
        && a[i + 1] == b[i]
        && a[i + 2..] == b[i + 2..]
}
