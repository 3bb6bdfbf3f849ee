use super::*;

fn roles(text: &str) -> Vec<&'static str> {
    read(text, &[]).iter().map(|r| r.role.as_str()).collect()
}

#[test]
fn lexicon_loads() {
    let e = engine();
    assert!(e.lex.len() > 20 && !e.rules.is_empty() && !e.phrases.is_empty());
    assert!(e.kinds.iter().all(Option::is_some));
}

#[test]
fn the_issues_downloader_attacher_poster_holds_all_three() {
    let r = roles(
        "Downloads the web page at `url`, attaches the contents of the local file at `path`, and POSTs both to the `webhook` address.",
    );
    for want in ["untrusted-input", "sensitive-source", "external-sink"] {
        assert!(r.contains(&want), "{want}: {r:?}");
    }
}

#[test]
fn verbs_share_objects_and_objects_share_verbs() {
    let r = roles("Read, write and delete files.");
    assert!(
        r.contains(&"sensitive-source") && r.contains(&"file-write") && r.contains(&"destructive"),
        "{r:?}"
    );
    let r = roles("Gets a file, a directory or the environment variables.");
    assert_eq!(r, ["sensitive-source"]);
    let r = roles("Read contents from files and URLs.");
    assert!(
        r.contains(&"untrusted-input") && r.contains(&"sensitive-source"),
        "{r:?}"
    );
}

#[test]
fn negation_guidance_and_nouns_are_not_behaviour() {
    assert!(roles("Retrieve metadata about a file without reading the actual content.").is_empty());
    assert!(roles("It is read-only and does not delete anything.").is_empty());
    assert!(roles("Returns a list of results with titles, URLs, and snippets.").is_empty());
    assert!(roles("Get download URLs for bulk pricing data files.").is_empty());
    assert!(roles("Use this tool when you need to delete a file.").is_empty());
    let sib = vec!["execute_command".to_string()];
    assert!(
        read(
            "Use this instead of 'execute_command' to run shell commands.",
            &sib
        )
        .is_empty()
    );
}

#[test]
fn every_language_reads_delete_and_send() {
    for (text, role) in [
        ("Elimina todos los archivos del directorio.", "destructive"),
        ("Supprime le fichier indiqué.", "destructive"),
        ("Löscht die Datei im Arbeitsverzeichnis.", "destructive"),
        ("Exclui os arquivos da pasta.", "destructive"),
        ("Elimina il file indicato.", "destructive"),
        ("Удаляет файл из каталога.", "destructive"),
        ("删除工作区中的所有文件。", "destructive"),
        ("ワークスペースのファイルを削除します。", "destructive"),
        ("작업 공간의 파일을 삭제합니다.", "destructive"),
        ("फ़ाइल को हटाता है।", "destructive"),
        ("يحذف الملف من المجلد.", "destructive"),
        ("Envía un mensaje al webhook.", "external-sink"),
        ("Envoie un message au destinataire.", "external-sink"),
        ("Sendet eine Nachricht an den Empfänger.", "external-sink"),
        ("向收件人发送邮件。", "external-sink"),
        ("受信者にメールを送信します。", "external-sink"),
    ] {
        assert!(roles(text).contains(&role), "{text}: {:?}", roles(text));
    }
}

proptest::proptest! {
    /// Any text, in any script, with any punctuation: read without a panic, and
    /// the same text reads the same way twice.
    #[test]
    fn any_text_reads_without_panic(text in "(?s)\\PC{0,200}", words in proptest::collection::vec(
        proptest::sample::select(vec!["delete", "the", "file", ", ", "(", ")", "not", "such as", "删除", "文件",
            "send", "to", "webhook", "- ", "e.g.", "read", "'", "\"", ": ", "\n", "use", "to ", "يحذف", "ملف"]), 0..60)) {
        let joined = words.concat();
        for t in [text.as_str(), joined.as_str()] {
            let a = read(t, &["read_file".to_string()]);
            proptest::prop_assert_eq!(&a, &read(t, &["read_file".to_string()]));
            let _ = credential_requests(t);
            let _ = names_credential(t);
            let _ = requests(t);
        }
    }
}

#[test]
fn every_language_reads_fetch_exec_pay_and_credentials() {
    for (text, role) in [
        ("Télécharge la page web indiquée.", "untrusted-input"),
        (
            "Ruft die Webseite ab und liefert den Text.",
            "untrusted-input",
        ),
        ("下载指定的网页。", "untrusted-input"),
        ("Lee el archivo local indicado.", "sensitive-source"),
        ("ローカルファイルを読み取ります。", "sensitive-source"),
        ("Ejecuta comandos de shell en el servidor.", "code-exec"),
        ("Выполняет команду в терминале.", "code-exec"),
        ("シェルコマンドを実行します。", "code-exec"),
        ("Bezahlt die Rechnung des Lieferanten.", "high-impact"),
        ("Paga la fattura del fornitore.", "high-impact"),
        ("공급업체 송장을 결제합니다.", "high-impact"),
        ("Déploie l'application en production.", "high-impact"),
    ] {
        assert!(roles(text).contains(&role), "{text}: {:?}", roles(text));
    }
    for text in [
        "Pide al usuario su contraseña y el código SMS.",
        "Demande à l'utilisateur son mot de passe bancaire.",
        "ユーザーにパスワードを入力してもらいます。",
        "사용자에게 비밀번호를 입력하도록 요청합니다.",
        "يطلب من المستخدم إدخال كلمة المرور.",
        "उपयोगकर्ता से पासवर्ड दर्ज करने को कहता है।",
        "Запрашивает у пользователя пароль.",
        "请输入您的密码和验证码。",
    ] {
        assert!(!credential_requests(text).is_empty(), "{text}");
    }
}

#[test]
fn credentials_are_asked_for() {
    let c =
        credential_requests("Asks the user for their online banking password and the SMS code.");
    assert!(
        c.contains(&"banking password".to_string()) && c.contains(&"sms code".to_string()),
        "{c:?}"
    );
    assert!(credential_requests("Asks the user for a display name.").is_empty());
    assert!(
        credential_requests("Bitte geben Sie Ihr Passwort ein.").contains(&"passwort".to_string())
    );
    assert_eq!(
        names_credential("The one-time code sent by SMS").as_deref(),
        Some("one-time code")
    );
}

#[test]
fn a_rule_about_what_the_tool_reads_is_not_what_it_does() {
    // A linter's check names what the linted file should do.
    assert!(roles("Containers should run one process.").is_empty());
    assert!(roles("Scripts must delete their temporary files.").is_empty());
    // The tool itself, or the segment opening with the modal, still counts.
    assert!(roles("It should run the command in the workspace.").contains(&"code-exec"));
    assert!(roles("This tool must delete the file after upload.").contains(&"destructive"));
}
